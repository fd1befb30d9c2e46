// A layout returned from the scope that borrowed its reader: the reader may be freed after.
import CallDirectoryFormat
import CallDirectoryReader

func layout(ofFileAt path: String) throws -> Int {
  func open() throws -> DirectoryLayout {
    let reader = try CallDirectoryReader(path: path)
    return reader.layout
  }
  return try open().file.count
}
