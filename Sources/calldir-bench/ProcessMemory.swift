#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the process's memory figures from `/proc/self` (Linux) without allocating as it reads,
/// so that sampling during a measurement does not itself dirty new heap pages.
///
///     let probe = ProcessMemory()
///     let before = probe.kibibytes(.privateDirty)
///
/// Every figure is `nil` where `/proc` is missing.
@safe final class ProcessMemory {
  /// A figure and the file and line it is read from.
  enum Figure {
    /// `Private_Dirty` in `/proc/self/smaps_rollup`: pages this process alone has written
    /// (its heap, stack and written private mappings); clean mapped file pages are not counted.
    case privateDirty
    /// `VmRSS` in `/proc/self/status`: resident pages, clean and dirty.
    case resident
    /// `VmHWM` in `/proc/self/status`: the largest `VmRSS` so far (the high-water mark).
    case residentPeak

    var file: String { self == .privateDirty ? "/proc/self/smaps_rollup" : "/proc/self/status" }
    var key: [UInt8] {
      switch self {
      case .privateDirty: Array("Private_Dirty:".utf8)
      case .resident: Array("VmRSS:".utf8)
      case .residentPeak: Array("VmHWM:".utf8)
      }
    }
  }

  private let buffer: UnsafeMutableRawBufferPointer

  /// A probe with its own 16 KiB read buffer, allocated once.
  init() {
    unsafe buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 16)
  }

  deinit { unsafe buffer.deallocate() }

  /// The figure in KiB, or `nil` when the file cannot be read or has no such line.
  func kibibytes(_ figure: Figure) -> Int? {
    let descriptor = unsafe open(figure.file, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { _ = close(descriptor) }
    var filled = 0
    while unsafe filled < buffer.count {
      let got = unsafe read(descriptor, buffer.baseAddress.map { unsafe $0 + filled }, buffer.count - filled)
      guard got > 0 else { break }
      filled += got
    }
    let key = figure.key
    var lineStart = 0
    while lineStart < filled {
      var matches = lineStart + key.count <= filled
      var index = 0
      while matches && index < key.count {
        matches = unsafe buffer[lineStart + index] == key[index]
        index += 1
      }
      var position = lineStart + (matches ? key.count : 0)
      if matches {
        while unsafe position < filled && (buffer[position] == 0x20 || buffer[position] == 0x09) {
          position += 1
        }
        var value = 0
        while position < filled, unsafe buffer[position] >= 0x30, unsafe buffer[position] <= 0x39 {
          value = value * 10 + Int(unsafe buffer[position] - 0x30)
          position += 1
        }
        return value
      }
      while unsafe position < filled && buffer[position] != 0x0A { position += 1 }
      lineStart = position + 1
    }
    return nil
  }
}
