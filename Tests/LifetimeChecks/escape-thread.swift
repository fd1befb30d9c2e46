// A view handed to a task that may run after the reader is gone.
import CallDirectoryFormat
import CallDirectoryReader

func inBackground(_ reader: CallDirectoryReader) {
  let index = reader.layout.identificationIndex
  Task.detached { print(index.blockCount) }
}
