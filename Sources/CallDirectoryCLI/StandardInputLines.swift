import CallDirectory
import CallDirectorySystem

/// Standard input read a line at a time by a command that answers each line (`resolve` and
/// `lookup` given no numbers or `-`), through `AnswerBatches`: the answers to the lines read so
/// far are written before more input is waited for.
///
/// A byte-order mark before the first line is no part of it, as `pack` reads its inputs. A line
/// is at most `LineReader.maximumCallerLineLength` bytes; a longer one is handed out cut to one
/// byte more, for the command to refuse (``isTooLong(_:)``).
struct StandardInputLines: ~Copyable {
  private var lines: LineReader
  private var atStart = true

  /// Lines read through `batches`, which writes the pending answers before each read.
  init(_ batches: AnswerBatches) {
    lines = LineReader(name: "<stdin>", chunks: batches.nextChunk, maximumLineLength: LineReader.maximumCallerLineLength)
  }

  /// Calls `body` with the next line, without its line end, and returns what it returns; `nil`
  /// at the end of the input.
  /// - Throws: `CommandFailure` when standard input cannot be read.
  mutating func next<R>(_ body: (Span<UInt8>) -> R) throws(CommandFailure) -> R? {
    let first = atStart
    atStart = false
    do {
      return try lines.nextLine { line in
        body(line.extracting(droppingFirst: first ? ByteOrderMark.length(atStartOf: line) : 0))
      }
    } catch {
      guard case .unreadable(let message) = error.kind else { throw CommandFailure(error.description) }
      throw CommandFailure("cannot read standard input: \(message)")
    }
  }

  /// Whether `line` is longer than any caller string, and was cut.
  static func isTooLong(_ line: Span<UInt8>) -> Bool { line.count > LineReader.maximumCallerLineLength }

  /// `line` decoded as UTF-8, an invalid sequence as U+FFFD.
  static func text(_ line: Span<UInt8>) -> String {
    unsafe line.withUnsafeBufferPointer { unsafe String(decoding: $0, as: UTF8.self) }
  }

  /// The start of a line too long to answer, as a message quotes it.
  static func quotedStart(of line: Span<UInt8>) -> String {
    String(text(line).prefix(PhoneNumberError.quotedCharacters)) + "..."
  }

  /// The message for a line too long to answer.
  static let tooLongMessage = "line longer than \(LineReader.maximumCallerLineLength) bytes"
}
