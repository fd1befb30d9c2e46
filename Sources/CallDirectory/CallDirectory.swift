// The umbrella module: `import CallDirectory` gives the whole toolkit to an app, an extension or a
// service that embeds it.
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
