// The umbrella module: `import CallDirectory` gives the whole toolkit to an app, an extension or a
// service that embeds it.
@_exported import CallDirectoryAppGroup
@_exported import CallDirectoryChangeset
@_exported import CallDirectoryFeed
@_exported import CallDirectoryFeedChangeset
@_exported import CallDirectoryFormat
@_exported import CallDirectoryListing
@_exported import CallDirectoryLookup
@_exported import CallDirectoryReader
@_exported import CallDirectoryResolver
@_exported import CallDirectoryVerifier
@_exported import CallDirectoryWriter

// The system types the toolkit's API hands out (a reader's file identity, the failure of a
// system call); not the rest of CallDirectorySystem, whose FileDescriptor would clash with
// swift-system's in an app that imports both.
@_exported import struct CallDirectorySystem.FileIdentity
@_exported import struct CallDirectorySystem.SystemError
