// A view captured by an escaping closure, called after the reader may be gone.
import CallDirectoryFormat
import CallDirectoryReader

func later(_ reader: CallDirectoryReader) -> () -> Int {
  let file = reader.file
  return { file.count }
}
