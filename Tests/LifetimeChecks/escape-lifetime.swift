// The pattern that once freed a mapping under a live view: the reader kept alive only while the
// layout is taken, then used after.
import CallDirectoryFormat
import CallDirectoryReader

func blockCount(_ bytes: [UInt8]) throws -> Int {
  var reader: CallDirectoryReader? = try CallDirectoryReader(bytes: bytes)
  let index = reader!.layout.blockingIndex
  reader = nil
  return index.records.count
}
