// The bytes the listing readers stop at or test for, named once for every reader in this module.

let tab: UInt8 = 0x09
let lineFeed: UInt8 = 0x0A
let carriageReturn: UInt8 = 0x0D
let space: UInt8 = 0x20
let quote: UInt8 = 0x22
let plus: UInt8 = 0x2B
let comma: UInt8 = 0x2C
let zero: UInt8 = 0x30
let nine: UInt8 = 0x39
let semicolon: UInt8 = 0x3B

/// Whether `byte` is a space or a tab, the blanks that the readers drop around numbers, labels
/// and kinds and before a comment's `#`.
func isSpaceOrTab(_ byte: UInt8) -> Bool { byte == space || byte == tab }

/// `bytes` without the spaces and tabs at its start and end.
func trimmingBlanks(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
  var (start, end) = (bytes.startIndex, bytes.endIndex)
  while start < end && isSpaceOrTab(bytes[start]) { start += 1 }
  while end > start && isSpaceOrTab(bytes[end - 1]) { end -= 1 }
  return bytes[start..<end]
}
