// A byte view stored in a class, which may outlive the reader.
import CallDirectoryFormat
import CallDirectoryReader

final class Holder {
  var index: EntryIndex?
  init(_ reader: CallDirectoryReader) { index = reader.layout.blockingIndex }
}
