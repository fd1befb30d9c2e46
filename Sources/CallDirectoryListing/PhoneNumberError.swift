/// Why a piece of text is not an acceptable phone number, and the text itself.
///
/// Thrown by ``PhoneNumberParser/parse(_:)`` and its byte-level forms. ``description`` is a complete
/// sentence fit to show a person, for example
/// `invalid character 'x' in number "+1 202 55x 0100"`.
///
///     do throws(PhoneNumberError) {
///       _ = try PhoneNumberParser().parse("+1 202 55x 0100")
///     } catch {
///       print(error.kind, error.input)
///     }
public struct PhoneNumberError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The rule the text broke.
  public enum Kind: Equatable, Sendable {
    /// The text is empty or holds only spaces and tabs.
    case empty
    /// The text holds separators, a `+` or a `tel:` prefix, but not a single digit.
    case noDigits
    /// A character that is neither a digit, a separator nor a leading `+`.
    ///
    /// `offset` is the character's 0-based UTF-8 byte offset in ``PhoneNumberError/input``. Bytes
    /// that are not valid UTF-8 are reported as U+FFFD.
    case invalidCharacter(Character, offset: Int)
    /// A `+` that is not the first character of the number (including a second `+`).
    ///
    /// `offset` is its 0-based UTF-8 byte offset in ``PhoneNumberError/input``.
    case misplacedPlus(offset: Int)
    /// An international number whose first digit, after the `+` or the international prefix, is 0.
    case leadingZero
    /// Fewer digits than the parser's digit limits allow; counts include the country code.
    case tooFewDigits(found: Int, minimum: Int)
    /// More digits than the parser's digit limits allow; counts include the country code.
    case tooManyDigits(found: Int, maximum: Int)
    /// The digits are within the limits but their value is outside `1 ... Int64.max - 1`.
    case outOfRange
    /// Without `+`, under country code 1, a digit string that is not a North American number:
    /// neither 10 digits with an area code starting 2-9 nor 11 digits starting with 1.
    ///
    /// No longer thrown: country code 1 is read by the numbering plan's `US` rules, as
    /// libphonenumber reads it, and a number outside the plan is reported by validity checks
    /// (``NumberingPlan/hasValidLength(_:)``) instead. Kept so that code matching it compiles.
    case invalidNationalNumber(digits: Int)
    /// Without `+` and without a default country, a number written in a national style: its
    /// first digit is 0 (a trunk prefix), or it holds a parenthesis or a separator between two
    /// digits (`(818) 470-0711`). Only bare digits are read as an international number then.
    case nationalStyleWithoutCountry
    /// `(0)` right after the calling code of a number beginning with `+`, where the calling
    /// code's trunk prefix is not 0 (or it has none), so the 0 cannot be a trunk prefix.
    case trunkPrefixAfterCountryCode
    /// A `tel:` URI with a local number (no `+`), whose meaning depends on a context that is not
    /// interpreted.
    case localTelURI
    /// Without `+`, under a default country, an international prefix (`00`, `011`) followed by
    /// digits that begin with no assigned calling code.
    case unassignedCallingCode
    /// A range `FIRST..LAST` whose last number is below its first.
    case invertedRange
    /// A pattern, or a range with an end written without `+`, whose two ends the rules of a
    /// default country read differently (one as a number with its calling code written, the
    /// other as a national number; one end of a length the other is not): the numbers between
    /// them would be no one's list. `first` and `last` are the ends as read.
    case endsReadDifferently(first: Int64, last: Int64)
    /// A pattern with a digit after a wildcard (`#` or `X`): only trailing digits may be wild, so
    /// that the pattern is one interval.
    case wildcardNotAtEnd
    /// A pattern whose first digit is a wildcard: the country code (or the national prefix) must
    /// be written, as the first bound would otherwise begin with 0.
    case wildcardFirst
    /// A number as a spreadsheet shows a numeric cell rather than as it was written: digits with a
    /// decimal part of zeros (`12025550100.0`), or scientific notation (`1.20256E+10`), whose
    /// last digits are lost. Read as separators, the `.0` would add a digit to the number.
    case spreadsheetNumber
    /// Without `+`, under a default country, a national number of a length the region dials only
    /// locally (seven digits in `US`, an area's number without its area code): the area, and so
    /// the number, cannot be known.
    case localNumber(digits: Int, region: String)
  }

  /// The rule the text broke.
  public var kind: Kind
  /// The text as given, with invalid UTF-8 shown as U+FFFD.
  public var input: String

  /// Creates an error for `input` that broke the rule `kind`.
  public init(kind: Kind, input: String) {
    self.kind = kind
    self.input = input
  }

  /// A human message naming the problem and quoting the input.
  public var description: String {
    // A caller string comes from outside: quote enough of it to recognise, not all of it.
    let shown = input.prefix(Self.quotedCharacters)
    let quoted = "\"\(Self.escaped(String(shown)))\(shown.endIndex < input.endIndex ? "..." : "")\""
    switch kind {
    case .empty:
      return "empty phone number"
    case .noDigits:
      return "no digits in number \(quoted)"
    case .invalidCharacter(let character, _):
      // A ';' is where a tel: URI's parameters begin: say where they may be written.
      let hint = character == ";" ? " (parameters such as ;ext= are allowed only in a tel: URI)" : ""
      return "invalid character '\(Self.escaped(String(character)))' in number \(quoted)\(hint)"
    case .misplacedPlus:
      return "misplaced '+' in number \(quoted) (a '+' may only begin the number)"
    case .leadingZero:
      return "number \(quoted) has a country code that starts with 0 (none does)"
    case .tooFewDigits(let found, let minimum):
      return "too few digits in number \(quoted): \(found), at least \(minimum) needed"
    case .tooManyDigits(let found, let maximum):
      return "too many digits in number \(quoted): \(found), at most \(maximum) allowed"
    case .outOfRange:
      return "number \(quoted) is out of range (1 ... 9223372036854775806)"
    case .invalidNationalNumber(let digits):
      return "number \(quoted) is not a North American number: \(digits) digits; "
        + "expected 10 digits with an area code starting 2-9, or 11 digits starting with 1"
    case .nationalStyleWithoutCountry:
      return "number \(quoted) is written nationally but no country is given: name its country "
        + "(calldir's --country, such as --country US or --country 44) or write it with + and its calling code"
    case .trunkPrefixAfterCountryCode:
      return "number \(quoted) has (0) after a calling code whose trunk prefix is not 0"
    case .localTelURI:
      return "tel: URI \(quoted) is not global (it must continue with '+')"
    case .unassignedCallingCode:
      return "number \(quoted) has no assigned calling code after its international prefix"
    case .invertedRange:
      return "range \(quoted) ends below its start"
    case .endsReadDifferently(let first, let last):
      return "range \(quoted) is read as +\(first) at its start and +\(last) at its end, not alike: "
        + "write its ends with + and the calling code"
    case .wildcardNotAtEnd:
      return "pattern \(quoted) has a digit after a wildcard (only the last digits may be # or X)"
    case .wildcardFirst:
      return "pattern \(quoted) begins with a wildcard (write its first digits: only the last digits may be # or X)"
    case .spreadsheetNumber where input.contains(where: { $0 == "E" || $0 == "e" }):
      return "number \(quoted) is in scientific notation, as a spreadsheet shows a long number, and its last digits "
        + "are lost: format the column as text and export it again"
    case .localNumber(let digits, let region):
      return "number \(quoted) is a local number (\(digits) digits are dialled in \(region) only within an area): "
        + "write it with its area code, or in international form with '+'"
    case .spreadsheetNumber:
      return "number \(quoted) has a decimal part, as a spreadsheet or a program writes a number kept as a decimal: "
        + "write the digits without it (read as a separator, the '.' would give the number a digit too many)"
    }
  }

  /// The most characters of the input a message quotes; a longer input is cut and marked `...`.
  public static let quotedCharacters = 64

  /// Escapes control characters, quotes and backslashes so the message stays on one line, and
  /// shows a character one cannot see, or cannot tell from a space (a byte-order mark, a
  /// no-break space), as its code point: `\u{FEFF}`.
  private static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      result += scalar.escaped(asASCII: !scalar.isASCII && invisible.contains(scalar.properties.generalCategory))
    }
    return result
  }

  /// The kinds of character shown as their code points.
  private static let invisible: Set<Unicode.GeneralCategory> = [
    .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .privateUse, .unassigned,
  ]
}
