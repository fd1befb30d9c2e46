/// A regular expression over decimal digits, in the small dialect libphonenumber's metadata is
/// written in: digits, `\d`, classes such as `[2-9]` or `[13-57]`, groups `( )` and `(?: )`,
/// alternation `|`, the quantifiers `?`, `{n}` and `{n,m}`, and the end anchor `$`.
///
/// Matching follows the leftmost-first (backtracking) semantics of libphonenumber's engines, so
/// a capture group holds what it holds there; `$1`-style transform rules depend on that. After
/// a few thousand steps the matcher starts remembering every (instruction, position) pair it has
/// left behind as failed, so a match takes at most O(*p* · *n*) steps for a program of *p*
/// instructions and *n* digits, on any pattern and input: no catastrophic backtracking. Until
/// then it allocates nothing, which is every match of the generated table's patterns in practice.
///
/// Patterns come from the generated numbering-plan table, not from input; the digits matched
/// are input, and are bounded by ``maximumDigits``.
struct DigitPattern: Sendable {
  /// The most digits a match reads; a longer input does not match. No numbering plan has a
  /// national number of more than 17 digits.
  static let maximumDigits = 40
  /// The most capturing groups a pattern may have; the table's patterns have at most 2.
  static let maximumGroups = 3
  /// Capture slots, two a group, group 0 (the whole match) included.
  typealias Slots = InlineArray<8, Int>

  /// Why a pattern is not in the dialect, with the character offset where reading stopped.
  struct SyntaxError: Error, Equatable {
    let pattern: String
    let offset: Int
  }

  enum Instruction: Sendable, Equatable {
    /// Consumes one digit whose bit is set in the mask (bit *d* for digit *d*).
    case digit(UInt16)
    /// Tries the first target, then the second: the first is preferred.
    case split(Int, Int)
    case jump(Int)
    /// Records the position in a capture slot (2*g* starts group *g*, 2*g*+1 ends it).
    case save(Int)
    /// `$`: succeeds only at the end of the digits.
    case end
    case match
  }

  /// The text the pattern was compiled from.
  let source: String
  let program: [Instruction]
  /// The count of capturing groups, group 0 (the whole match) not included.
  let groupCount: Int
  /// The digits a match can begin with (bit *d* for digit *d*), or `nil` when the pattern can
  /// match no digits at all: a quick refusal before any step.
  let firstDigits: UInt16?

  /// Compiles `pattern`.
  /// - Throws: ``SyntaxError`` for anything outside the dialect.
  /// - Complexity: O(*m*) in the pattern's length times its largest `{n,m}` bound.
  init(_ pattern: String) throws(SyntaxError) {
    var parser = Parser(bytes: Array(pattern.utf8), pattern: pattern)
    let tree = try parser.alternatives()
    guard parser.index == parser.bytes.count, parser.groups <= Self.maximumGroups else {
      throw SyntaxError(pattern: pattern, offset: parser.index)
    }
    var emitter = Emitter()
    emitter.emit(tree)
    emitter.program.append(.match)
    source = pattern
    program = emitter.program
    groupCount = parser.groups
    let first = Self.first(of: tree)
    firstDigits = first.nullable ? nil : first.mask
  }

  /// The match that starts at the first digit, as libphonenumber's `matcher.lookingAt()` finds
  /// it: capture ranges indexed by group, 0 being the whole match; `nil` for a group that took
  /// no part. `nil` when the pattern does not match at the start.
  /// - Parameter digits: digit values 0 ... 9.
  func prefixMatch(_ digits: ArraySlice<UInt8>) -> [Range<Int>?]? {
    run(digits, whole: false)
  }

  /// Whether the pattern matches all of `digits` (libphonenumber's `matches()`).
  /// - Parameter digits: digit values 0 ... 9.
  func wholeMatch(_ digits: ArraySlice<UInt8>) -> Bool {
    run(digits, whole: true) != nil
  }

  private func run(_ digits: ArraySlice<UInt8>, whole: Bool) -> [Range<Int>?]? {
    guard digits.count <= Self.maximumDigits else { return nil }
    if let firstDigits {
      guard let first = digits.first, first <= 9, firstDigits & (1 << UInt16(first)) != 0 else { return nil }
    }
    var matcher = Matcher(program: program, input: digits, whole: whole)
    guard matcher.step(0, 0) else { return nil }
    matcher.slots[0] = 0
    return (0...groupCount).map { group in
      let start = matcher.slots[2 * group]
      let end = matcher.slots[2 * group + 1]
      return start >= 0 && end >= start ? start..<end : nil
    }
  }

  /// The digits a match of `alternatives` can begin with, and whether it can be empty.
  private static func first(of alternatives: [[Node]]) -> (mask: UInt16, nullable: Bool) {
    var mask: UInt16 = 0
    var nullable = false
    for sequence in alternatives {
      var sequenceNullable = true
      for node in sequence where sequenceNullable {
        let part = first(of: node)
        mask |= part.mask
        sequenceNullable = part.nullable
      }
      nullable = nullable || sequenceNullable
    }
    return (mask, nullable)
  }

  private static func first(of node: Node) -> (mask: UInt16, nullable: Bool) {
    switch node {
    case .digits(let mask): return (mask, false)
    case .end: return (0, true)
    case .group(_, let body): return first(of: body)
    case .repeated(let body, let min, _):
      let inner = first(of: body)
      return (inner.mask, min == 0 || inner.nullable)
    }
  }
}

extension DigitPattern {
  /// A parsed pattern: alternatives of sequences of quantified atoms.
  indirect enum Node {
    case digits(UInt16)
    case end
    case group(Int?, [[Node]])
    case repeated(Node, min: Int, max: Int)
  }

  /// Recursive descent over the dialect's grammar:
  /// `alternatives := sequence ('|' sequence)*`, `sequence := (atom quantifier?)*`.
  struct Parser {
    let bytes: [UInt8]
    let pattern: String
    var index = 0
    var groups = 0

    init(bytes: [UInt8], pattern: String) {
      self.bytes = bytes
      self.pattern = pattern
    }

    private func failure() -> SyntaxError { SyntaxError(pattern: pattern, offset: index) }
    private var next: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func alternatives() throws(SyntaxError) -> [[Node]] {
      var result = [try sequence()]
      while next == UInt8(ascii: "|") {
        index += 1
        result.append(try sequence())
      }
      return result
    }

    mutating func sequence() throws(SyntaxError) -> [Node] {
      var nodes: [Node] = []
      while let byte = next, byte != UInt8(ascii: "|"), byte != UInt8(ascii: ")") {
        var node = try atom()
        if next == UInt8(ascii: "?") {
          index += 1
          node = .repeated(node, min: 0, max: 1)
        } else if next == UInt8(ascii: "{") {
          index += 1
          let low = try number()
          var high = low
          if next == UInt8(ascii: ",") {
            index += 1
            high = try number()
          }
          guard next == UInt8(ascii: "}"), low <= high else { throw failure() }
          index += 1
          node = .repeated(node, min: low, max: high)
        }
        nodes.append(node)
      }
      return nodes
    }

    /// A bound of `{n,m}`: up to two digits, since no plan needs more.
    mutating func number() throws(SyntaxError) -> Int {
      var value = 0
      var count = 0
      while let byte = next, byte >= 0x30, byte <= 0x39, count < 2 {
        value = value * 10 + Int(byte - 0x30)
        count += 1
        index += 1
      }
      guard count > 0 else { throw failure() }
      return value
    }

    mutating func atom() throws(SyntaxError) -> Node {
      guard let byte = next else { throw failure() }
      index += 1
      switch byte {
      case 0x30...0x39:
        return .digits(1 << UInt16(byte - 0x30))
      case UInt8(ascii: "\\"):
        guard next == UInt8(ascii: "d") else { throw failure() }
        index += 1
        return .digits(0x3FF)
      case UInt8(ascii: "$"):
        return .end
      case UInt8(ascii: "["):
        var mask: UInt16 = 0
        while let first = next, first != UInt8(ascii: "]") {
          guard first >= 0x30, first <= 0x39 else { throw failure() }
          index += 1
          var last = first
          if next == UInt8(ascii: "-") {
            index += 1
            guard let high = next, high >= first, high <= 0x39 else { throw failure() }
            index += 1
            last = high
          }
          for digit in first...last { mask |= 1 << UInt16(digit - 0x30) }
        }
        guard next == UInt8(ascii: "]"), mask != 0 else { throw failure() }
        index += 1
        return .digits(mask)
      case UInt8(ascii: "("):
        var group: Int? = nil
        if next == UInt8(ascii: "?") {
          index += 1
          guard next == UInt8(ascii: ":") else { throw failure() }
          index += 1
        } else {
          groups += 1
          group = groups
        }
        let body = try alternatives()
        guard next == UInt8(ascii: ")") else { throw failure() }
        index += 1
        return .group(group, body)
      default:
        index -= 1
        throw failure()
      }
    }
  }

  /// Turns a tree into a backtracking program, as Thompson's construction does; `{n,m}` is
  /// written out as n copies and m-n optional ones.
  struct Emitter {
    var program: [Instruction] = []

    mutating func emit(_ alternatives: [[Node]]) {
      var exits: [Int] = []
      for (position, sequence) in alternatives.enumerated() {
        let isLast = position == alternatives.count - 1
        let split = program.count
        if !isLast { program.append(.split(split + 1, -1)) }
        for node in sequence { emit(node) }
        if !isLast {
          exits.append(program.count)
          program.append(.jump(-1))
          program[split] = .split(split + 1, program.count)
        }
      }
      for exit in exits { program[exit] = .jump(program.count) }
    }

    mutating func emit(_ node: Node) {
      switch node {
      case .digits(let mask):
        program.append(.digit(mask))
      case .end:
        program.append(.end)
      case .group(let group, let body):
        if let group { program.append(.save(2 * group)) }
        emit(body)
        if let group { program.append(.save(2 * group + 1)) }
      case .repeated(let body, let min, let max):
        for _ in 0..<min { emit(body) }
        var splits: [Int] = []
        for _ in min..<max {
          splits.append(program.count)
          program.append(.split(program.count + 1, -1))
          emit(body)
        }
        for split in splits { program[split] = .split(split + 1, program.count) }
      }
    }
  }

  /// One run of a program over one input. Once `steps` passes ``memoAfter``, `failed` marks
  /// each (instruction, position) pair explored without success from then on: reaching it again
  /// cannot succeed either, whatever the captures, which bounds the rest of the run by the
  /// pairs' count.
  struct Matcher {
    /// Steps taken before the memo is allocated: far more than any real number needs.
    static let memoAfter = 4096

    let program: [Instruction]
    let input: ArraySlice<UInt8>
    let whole: Bool
    var slots = Slots(repeating: -1)
    var failed: [UInt64] = []
    var steps = 0

    init(program: [Instruction], input: ArraySlice<UInt8>, whole: Bool) {
      self.program = program
      self.input = input
      self.whole = whole
    }

    mutating func step(_ start: Int, _ position: Int) -> Bool {
      var pc = start
      var position = position
      let count = input.count
      while true {
        steps += 1
        if steps > Self.memoAfter {
          // At most a few thousand instructions times maximumDigits + 1 positions.
          if failed.isEmpty { failed = Array(repeating: 0, count: (program.count * (count + 1) + 63) / 64) }
          let key = pc * (count + 1) + position
          if failed[key >> 6] & (1 << UInt64(key & 63)) != 0 { return false }
          failed[key >> 6] |= 1 << UInt64(key & 63)
        }
        switch program[pc] {
        case .digit(let mask):
          guard position < count else { return false }
          let digit = input[input.startIndex + position]
          guard digit <= 9, mask & (1 << UInt16(digit)) != 0 else { return false }
          position += 1
          pc += 1
        case .end:
          guard position == count else { return false }
          pc += 1
        case .jump(let target):
          pc = target
        case .split(let first, let second):
          if step(first, position) { return true }
          pc = second
        case .save(let slot):
          let old = slots[slot]
          slots[slot] = position
          if step(pc + 1, position) { return true }
          slots[slot] = old
          return false
        case .match:
          guard !whole || position == count else { return false }
          slots[1] = position
          return true
        }
      }
    }
  }
}
