/// What a parser does with a line it cannot take (a number it cannot read, a field missing, or
/// an error the entry's consumer throws): given the error, the line's bytes as a range of the
/// parsed bytes without the line break (a CSV record quoted over several lines: all of them), and
/// for a table input with a header its header line (to feed the line again under it), it
/// rethrows to stop, or returns to skip the line and go on (`calldir pack --keep-going`). Errors
/// in the form of the input itself (a quote never closed, bytes that are not UTF-8 in a table)
/// always stop: what follows them cannot be told apart into lines.
public typealias BadLineHandler = (_ error: ListingError, _ line: Range<Int>, _ header: [UInt8]?) throws(ListingError) ->
  Void

/// `range` without a final LF, or CR LF.
func withoutLineBreak(_ range: Range<Int>, in bytes: [UInt8]) -> Range<Int> {
  var end = range.upperBound
  if end > range.lowerBound && bytes[end - 1] == 0x0A { end -= 1 }
  if end > range.lowerBound && bytes[end - 1] == 0x0D { end -= 1 }
  return range.lowerBound..<end
}
