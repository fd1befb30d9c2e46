import CallDirectory

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Something the lookup tables time: it finds a number and returns a value derived from the entry.
protocol LookupPeer {
  /// -1 when `number` is absent; otherwise a value that depends on the entry found (1 for a
  /// blocking entry, the label id or the label's length for identification).
  func find(_ number: Int64) -> Int
}

/// `CallDirectoryReader.isBlocked(_:)` on a mapped file.
struct BlockedLookup: LookupPeer, Sendable {
  let reader: CallDirectoryReader

  func find(_ number: Int64) -> Int {
    do { return try reader.isBlocked(number) ? 1 : -1 } catch { return -2 }
  }
}

/// `CallDirectoryReader.labelId(for:)` on a mapped file: the number search of identification.
struct LabelIdLookup: LookupPeer, Sendable {
  let reader: CallDirectoryReader

  func find(_ number: Int64) -> Int {
    do { return try reader.labelId(for: number).map { Int($0) } ?? -1 } catch { return -2 }
  }
}

/// What a label peer reads of the label it finds.
enum LabelRead: Sendable {
  /// Its length, which a `String` keeps beside its pointer: the label's storage is not reached.
  case length
  /// The first byte of its text, as a caller that shows or sends the label does: a label longer
  /// than 15 bytes keeps its text in the `String`'s own storage.
  case firstByte

  /// What is read of `label`.
  @inline(__always)
  func value(of label: String) -> Int { self == .length ? label.utf8.count : Int(label.utf8.first ?? 0) }
}

/// `CallDirectoryReader.label(for:)` on a mapped file: number search, label block, UTF-8 check,
/// `String`, then `read` of the label.
struct LabelLookup: LookupPeer {
  let reader: CallDirectoryReader
  var read = LabelRead.length

  func find(_ number: Int64) -> Int {
    do { return try reader.label(for: number).map { read.value(of: $0) } ?? -1 } catch { return -2 }
  }
}

/// The in-memory peer: a sorted `[Int64]` with a hand-written lower-bound binary search, and for
/// identification a parallel array of label indices into a `[String]`.
struct SortedArrayPeer: LookupPeer, Sendable {
  /// The numbers, ascending.
  let numbers: [Int64]
  /// The label index of each number (empty for blocking).
  let labelIndices: [UInt32]
  /// The labels (empty for blocking).
  let labels: [String]
  /// What `find` reads of the label (like `label(for:)`'s caller), or `nil` to return its index.
  var labelRead: LabelRead? = nil

  /// The position of `number` in `numbers`, or `nil`.
  @inline(__always)
  func position(of number: Int64) -> Int? {
    var low = 0
    var high = numbers.count
    while low < high {
      let middle = (low &+ high) >> 1  // both <= count: no overflow
      if numbers[middle] < number { low = middle &+ 1 } else { high = middle }
    }
    return low < numbers.count && numbers[low] == number ? low : nil
  }

  func find(_ number: Int64) -> Int {
    guard let position = position(of: number) else { return -1 }
    if labelIndices.isEmpty { return 1 }
    let label = Int(labelIndices[position])
    return labelRead.map { $0.value(of: labels[label]) } ?? label
  }
}

/// The plain-file peer: a file of sorted little-endian `Int64`s, 8 bytes an entry, mapped
/// read-only and binary-searched in place.
@safe final class MappedSortedFile: LookupPeer {
  private let base: UnsafeRawPointer
  private let length: Int
  /// The number of entries.
  let count: Int

  /// Maps the file at `path` (open, fstat, mmap, close), or `nil` when that fails or it is empty.
  init?(path: String) {
    let descriptor = unsafe open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { _ = close(descriptor) }
    var status = stat()
    guard unsafe fstat(descriptor, &status) == 0, status.st_size > 0 else { return nil }
    let length = Int(status.st_size)
    guard let address = unsafe mmap(nil, length, PROT_READ, MAP_SHARED, descriptor, 0), unsafe address != MAP_FAILED
    else { return nil }
    unsafe base = UnsafeRawPointer(address)
    self.length = length
    count = length / 8
  }

  deinit {
    _ = unsafe munmap(UnsafeMutableRawPointer(mutating: base), length)
  }

  /// Entry `index`. Precondition: `0 <= index < count`, so `index * 8` cannot overflow and the
  /// load is inside the mapping and 8-aligned (a mapping starts on a page).
  @inline(__always)
  private func entry(_ index: Int) -> Int64 {
    Int64(littleEndian: unsafe base.load(fromByteOffset: index &* 8, as: Int64.self))
  }

  func find(_ number: Int64) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low &+ high) >> 1
      if entry(middle) < number { low = middle &+ 1 } else { high = middle }
    }
    return low < count && entry(low) == number ? low : -1
  }

  /// Writes `numbers` as a file of little-endian `Int64`s.
  static func write(_ numbers: [Int64], to path: String) throws(BenchError) {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(numbers.count * 8)
    for number in numbers { bytes.appendUInt64LE(UInt64(bitPattern: number)) }
    try Files.write(bytes, to: path)
  }

  /// Reads the file at `path` into an array with `read(2)`: what the in-memory peer pays at start-up.
  static func load(_ path: String) throws(BenchError) -> [Int64] {
    let descriptor = unsafe open(path, O_RDONLY)
    guard descriptor >= 0 else { throw .io("cannot open \(path)") }
    defer { _ = close(descriptor) }
    var status = stat()
    guard unsafe fstat(descriptor, &status) == 0 else { throw .io("cannot stat \(path)") }
    var numbers = [Int64](repeating: 0, count: Int(status.st_size) / 8)
    let complete = unsafe numbers.withUnsafeMutableBytes { buffer -> Bool in
      var done = 0
      while done < buffer.count {
        let got = unsafe read(descriptor, buffer.baseAddress.map { unsafe $0 + done }, buffer.count - done)
        guard got > 0 else { return false }
        done += got
      }
      return true
    }
    guard complete else { throw .io("cannot read \(path)") }
    for index in numbers.indices { numbers[index] = Int64(littleEndian: numbers[index]) }
    return numbers
  }
}

/// Why the benchmark could not go on.
enum BenchError: Error, CustomStringConvertible {
  /// A file could not be written or read.
  case io(String)
  /// The library refused something.
  case library(String)

  var description: String {
    switch self {
    case .io(let message), .library(let message): return message
    }
  }
}
