import CallDirectoryFormat

// The list's record payload (`Spec/APPGROUP.md`, section 6) and the fingerprint that tells what
// CallKit holds: a directory merged with a personal list.
extension PersonalList {
  /// `u32 b`, `b` blocked numbers (`u64`), `u32 a`, `a` allowed numbers, `u32 l`, then `l` times
  /// a `u64` number, a `u16` length and the label's bytes; every list ascending by number.
  var payload: [UInt8] {
    var bytes: [UInt8] = []
    StateRecord.appendLE(UInt64(blocked.count), size: 4, to: &bytes)
    for number in blocked { StateRecord.appendLE(UInt64(number), size: 8, to: &bytes) }
    StateRecord.appendLE(UInt64(allowed.count), size: 4, to: &bytes)
    for number in allowed { StateRecord.appendLE(UInt64(number), size: 8, to: &bytes) }
    let labelled = self.labelled
    StateRecord.appendLE(UInt64(labelled.count), size: 4, to: &bytes)
    for (number, label) in labelled {
      StateRecord.appendLE(UInt64(number), size: 8, to: &bytes)
      StateRecord.appendLE(UInt64(label.utf8.count), size: 2, to: &bytes)
      bytes += label.utf8
    }
    return bytes
  }

  /// The list of a record's payload, or `nil` when it breaks a rule of section 6.
  /// - Complexity: O(payload).
  init?(payload bytes: [UInt8]) {
    var offset = 0
    func read(_ size: Int) -> UInt64? {
      guard bytes.count - offset >= size else { return nil }
      defer { offset += size }
      return StateRecord.readLE(bytes, at: offset, size: size)
    }
    func numbers() -> [Int64]? {
      guard let count = read(4), count <= UInt64(bytes.count - offset) / 8 else { return nil }
      var numbers: [Int64] = []
      for _ in 0..<count {
        guard let value = read(8), let number = Int64(exactly: value), Limits.isValidNumber(number),
          number > (numbers.last ?? 0)
        else { return nil }
        numbers.append(number)
      }
      return numbers
    }
    guard let blocked = numbers(), let allowed = numbers(), Set(blocked).isDisjoint(with: allowed),
      let labelCount = read(4), labelCount <= UInt64(bytes.count - offset) / 10
    else { return nil }
    var labels: [Int64: String] = [:]
    var previous: Int64 = 0
    for _ in 0..<labelCount {
      guard let value = read(8), let number = Int64(exactly: value), Limits.isValidNumber(number), number > previous,
        let length = read(2), Limits.isValidLabelLength(Int(length)), bytes.count - offset >= Int(length),
        let label = String(validating: bytes[offset..<(offset + Int(length))], as: UTF8.self)
      else { return nil }
      offset += Int(length)
      labels[number] = label
      previous = number
    }
    guard offset == bytes.count else { return nil }
    self.init()
    self.blocked = blocked
    self.allowed = allowed
    self.labels = labels
  }

  /// A 64-bit hash of the list's payload (FNV-1a), never 0: with a directory's fingerprint it
  /// names what CallKit holds.
  var fingerprint: UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in payload { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    return hash == 0 ? 1 : hash
  }

  /// What CallKit holds when fed the directory of `directory` merged with this list: the
  /// directory's own fingerprint when the list is empty, so that a container without a personal
  /// list records what it always did.
  func merged(with directory: UInt64) -> UInt64 {
    isEmpty ? directory : (directory ^ (fingerprint &* 0x9e37_79b9_7f4a_7c15)) | 1
  }
}
