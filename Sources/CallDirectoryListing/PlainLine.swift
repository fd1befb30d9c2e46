import CallDirectoryFormat

/// The common line of a CSV listing, read in one pass over the input without the general reader:
/// one record on one line, the number written as `+` and digits, the label as it is or in quotes
/// (for its commas).
///
/// Most lines that `calldir unpack` or a provider's export writes are such lines, and reading
/// them here is several times cheaper than through `CSVReader`, a `CSVRecord` and the number
/// parser's general scan: no record value, no field array, one borrow of the input a line.
///
/// Anything else is not read here: a quote inside a field or doubled, a CR, a range or pattern,
/// a number with separators or more than 18 digits, a byte that is not UTF-8, a label of the
/// wrong length (an unquoted one measured without the spaces and tabs around it, which it
/// loses), too many or too few fields. Such a line returns `nil`, and the caller reads it
/// with the general reader, which then reads the same record to the same entry or words the
/// error. This reader accepts only lines that the general path reads to the entry it returns;
/// tests (and the listing fuzz harness) hold the two to that.
enum PlainLine {
  /// The entry of one plain line.
  struct Entry: Equatable {
    /// `EntryKind.blocking` or `EntryKind.identification`.
    var kind: ListingKind
    /// The number, as `PhoneNumberParser.international(in:from:to:)` reads it.
    var number: Int64
    /// Where the label's bytes lie in the input: well-formed UTF-8 of a valid label length. Empty
    /// for a blocking entry.
    var label: Range<Int>
    /// Where the next line begins: just past this line's LF, or the input's end.
    var next: Int
  }

  /// A listing's `kind,number,label` line at `start`: `identify,NUMBER,LABEL`, or
  /// `block,NUMBER` with or without an empty label field, ending with LF or the input.
  /// - Returns: The entry, or `nil` when the line is not plain.
  /// - Complexity: O(*m*) in the line's length.
  static func listing(_ bytes: [UInt8], at start: Int, parser: PhoneNumberParser) -> Entry? {
    unsafe bytes.withUnsafeBytes { raw in
      // The edge check: every read below lies in `start ..< raw.count`.
      guard start >= 0, raw.count &- start >= 8 else { return nil }
      let word = UInt64(littleEndian: unsafe raw.loadUnaligned(fromByteOffset: start, as: UInt64.self))
      if word == identifyWord {
        let numberStart = start &+ 9  // "identify,": start + 8 < raw.count is checked first
        guard start &+ 8 < raw.count, unsafe raw[start &+ 8] == comma,
          let (number, end) = unsafe number(in: raw, from: numberStart, parser: parser), end < raw.count,
          unsafe raw[end] == comma,
          let (label, next) = unsafe label(in: raw, from: end &+ 1)
        else { return nil }
        return Entry(kind: .identification, number: number, label: label, next: next)
      }
      guard word & 0xFFFF_FFFF_FFFF == blockWord,
        let (number, end) = unsafe number(in: raw, from: start &+ 6, parser: parser)  // "block,"
      else { return nil }
      guard end < raw.count else { return Entry(kind: .blocking, number: number, label: end..<end, next: end) }
      // The number ends at LF, or at the comma before an empty label and its LF (or the end).
      var next = end
      if unsafe raw[next] == comma { next &+= 1 }
      if next == raw.count { return Entry(kind: .blocking, number: number, label: end..<end, next: next) }
      guard unsafe raw[next] == lineFeed else { return nil }
      return Entry(kind: .blocking, number: number, label: end..<end, next: next &+ 1)
    }
  }

  /// An identify file's `number,label` line at `start`, ending with LF or the input.
  /// - Returns: The entry (always `EntryKind.identification`), or `nil` when the line is not plain.
  /// - Complexity: O(*m*) in the line's length.
  static func identification(_ bytes: [UInt8], at start: Int, parser: PhoneNumberParser) -> Entry? {
    unsafe bytes.withUnsafeBytes { raw in
      guard start >= 0, start <= raw.count,
        let (number, end) = unsafe number(in: raw, from: start, parser: parser), end < raw.count,
        unsafe raw[end] == comma,
        let (label, next) = unsafe label(in: raw, from: end &+ 1)
      else { return nil }
      return Entry(kind: .identification, number: number, label: label, next: next)
    }
  }

  /// The number field at `start`: an optional `+` and digits up to a comma, an LF or the end,
  /// read by the parser's rule for that form. Returns the number and where the field ends.
  /// - Precondition: `0 <= start <= raw.count`.
  private static func number(
    in raw: UnsafeRawBufferPointer, from start: Int, parser: PhoneNumberParser
  ) -> (Int64, end: Int)? {
    var end = start
    if unsafe end < raw.count && raw[end] == plus { end &+= 1 }
    // The digits a word at a time while eight bytes remain, then a byte at a time (which stops at
    // once where a word found the end).
    while raw.count &- end >= 8 {
      let marks = DigitWords.nonDigits(UInt64(littleEndian: unsafe raw.loadUnaligned(fromByteOffset: end, as: UInt64.self)))
      if marks != 0 {
        end &+= marks.trailingZeroBitCount >> 3
        break
      }
      end &+= 8
    }
    while unsafe end < raw.count && raw[end] &- zero <= 9 { end &+= 1 }
    guard unsafe end == raw.count || raw[end] == comma || raw[end] == lineFeed,
      let number = unsafe parser.international(in: raw, from: start, to: end)
    else { return nil }
    return (number, end)
  }

  /// The last field of a line at `start`: text up to an LF or the end with no comma, quote or
  /// CR, taken without the spaces and tabs around it, or such text with commas in quotes; a
  /// valid label either way. Returns the label's range and where the next line begins.
  /// - Precondition: `0 <= start <= raw.count`.
  private static func label(in raw: UnsafeRawBufferPointer, from start: Int) -> (Range<Int>, next: Int)? {
    let (stop, pastASCII) = unsafe FieldScan.firstStop(in: raw, from: start, to: raw.count)
    if unsafe stop == start && stop < raw.count && raw[stop] == quote { return unsafe quotedLabel(in: raw, from: start) }
    guard let next = unsafe lineEnd(in: raw, at: stop) else { return nil }
    // An unquoted label without the spaces and tabs around it, as the general reader takes it.
    var (first, last) = (start, stop)
    while unsafe first < last && isSpaceOrTab(raw[first]) { first &+= 1 }
    while unsafe last > first && isSpaceOrTab(raw[last &- 1]) { last &-= 1 }
    guard unsafe isLabel(raw, first..<last, pastASCII: pastASCII) else { return nil }
    return (first..<last, next)
  }

  /// A quoted last field at `start` (its opening quote): text with no quote, CR or LF (commas
  /// are text inside quotes), the closing quote, then an LF or the end. Quoted so that their
  /// commas are text, such labels are a few in a hundred of a business directory's; a doubled
  /// quote or a line break inside quotes is left to the general reader.
  /// - Precondition: `raw[start]` is a quote.
  private static func quotedLabel(in raw: UnsafeRawBufferPointer, from start: Int) -> (Range<Int>, next: Int)? {
    let contentStart = start &+ 1  // past the quote at start < raw.count
    var index = contentStart
    var pastASCII = false
    while true {
      let (stop, high) = unsafe FieldScan.firstStop(in: raw, from: index, to: raw.count)
      pastASCII = pastASCII || high
      guard stop < raw.count else { return nil }  // no closing quote
      if unsafe raw[stop] == comma {
        index = stop &+ 1
        continue
      }
      // A line break inside quotes, or after the closing quote a doubled quote, a CR or text.
      guard unsafe raw[stop] == quote, let next = unsafe lineEnd(in: raw, at: stop &+ 1),
        unsafe isLabel(raw, contentStart..<stop, pastASCII: pastASCII)
      else { return nil }
      return (contentStart..<stop, next)
    }
  }

  /// Where the next line begins when a line ends at `index`: past an LF there, or the end.
  /// `nil` when any other byte is there.
  private static func lineEnd(in raw: UnsafeRawBufferPointer, at index: Int) -> Int? {
    if index == raw.count { return index }
    return unsafe index < raw.count && raw[index] == lineFeed ? index &+ 1 : nil
  }

  /// Whether `raw[range]` is a valid label: of a valid length, and well-formed UTF-8, which only
  /// text `pastASCII` needs checking for.
  private static func isLabel(_ raw: UnsafeRawBufferPointer, _ range: Range<Int>, pastASCII: Bool) -> Bool {
    guard Limits.isValidLabelLength(range.count) else { return false }
    return unsafe !pastASCII || UTF8Validation.isValid(ByteView(UnsafeRawBufferPointer(rebasing: raw[range])))
  }

  /// `identify` and `block,` as little-endian words, to compare a line's first bytes with in one step.
  static let identifyWord: UInt64 = 0x7966_6974_6E65_6469
  static let blockWord: UInt64 = 0x2C6B_636F_6C62
}
