// A changeset feeds CallKit's incremental loads as it is: its reader already streams each kind's
// removals and additions as ascending runs, the shape `ChangeSource` asks for.
import CallDirectoryChangeset
import CallDirectoryFeed

extension ChangesetReader: ChangeSource {}
