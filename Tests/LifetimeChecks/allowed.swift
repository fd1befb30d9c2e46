// Views used within a borrow of the reader: must compile.
import CallDirectoryFormat
import CallDirectoryReader

func firstNumber(of reader: CallDirectoryReader) -> UInt64? {
  let index = reader.layout.blockingIndex
  guard index.blockCount > 0 else { return nil }
  return index.firstNumber(ofBlock: 0)
}

func fileBytes(of reader: CallDirectoryReader) -> Int {
  let file = reader.file
  return file.sliceOrEmpty(offset: 0, length: 8).count
}
