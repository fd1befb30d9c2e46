import CallDirectoryFormat
import CallDirectoryLookup
import CallDirectoryReader

/// A `FormatError` and the stack position of the directory it came from.
struct LocatedFormatError: Error {
  var error: FormatError
  var index: Int
}

extension Resolver {
  /// Resolves a number already in CallKit's form (the international digits, `12025550100`).
  ///
  /// Every decision is made from label ids; only the label that is reported is turned into text,
  /// and the reader's label cache hands that out without copying it. Nothing else is allocated.
  ///
  ///     print(try resolver.resolve(12025550100).action)  // block
  ///
  /// - Returns: the answer under `Spec/RESOLUTION.md` section 4; an emergency number is answered
  ///   without consulting any directory.
  /// - Throws: `FormatError` when a directory is damaged where the lookup reads it.
  /// - Complexity: O(k log n) for k directories of at most n entries: at most two lookups in each.
  public func resolve(_ number: Int64) throws(FormatError) -> Resolution {
    do { return try resolveLocated(number) } catch { throw error.error }
  }

  /// `resolve(_:)`, its error naming the damaged directory (`ResolveError.damagedDirectory`), for a
  /// caller with a stack of them to say which.
  /// - Throws: ``ResolveError/damagedDirectory(_:_:)``.
  package func resolveNamingDamage(_ number: Int64) throws(ResolveError) -> Resolution {
    do { return try resolveLocated(number) } catch {
      throw .damagedDirectory(Resolution.Directory(index: error.index, name: sources[error.index].name), error.error)
    }
  }

  /// `resolve(_:)`, with the failing directory's position in the error.
  func resolveLocated(_ number: Int64) throws(LocatedFormatError) -> Resolution {
    if let code = emergencyNumbers.match(number) {
      return Resolution(reason: .emergency, number: number, emergencyCode: code)
    }
    // What the stack has said so far. Each directory's reader is taken once and kept only as
    // long as a label from it may still be reported.
    var decision: (index: Int, blocked: Bool, label: LabelSource?)? = nil
    var firstLabel: LabelSource? = nil
    var allowed: (index: Int, label: LabelSource?)? = nil
    var index = 0
    scan: while index < sources.count {
      // Past the lowest allow list nothing can override the decision, and its label is its own.
      if decision != nil && index > lastAllowList { break }
      let reader = sources[index].provider.current()
      do {
        switch sources[index].role {
        case .allowList:
          if let id = try reader.labelId(for: number) {
            allowed = (index, LabelSource(index: index, reader: reader, id: id))
            break scan
          }
          if try reader.isBlocked(number) {
            allowed = (index, nil)
            break scan
          }
        case .standard:
          if decision == nil {
            let blocked = try reader.isBlocked(number)
            let label = try reader.labelId(for: number).map { LabelSource(index: index, reader: reader, id: $0) }
            if blocked || label != nil { decision = (index, blocked, label) }
            firstLabel = label  // nothing above had a label, or it would have decided
          } else if firstLabel == nil, let id = try reader.labelId(for: number) {
            // Reported only if an allow list below lists the number.
            firstLabel = LabelSource(index: index, reader: reader, id: id)
          }
        }
      } catch {
        throw LocatedFormatError(error: error, index: index)
      }
      index += 1
    }
    if let allowed {
      // The allow list's own label, else the first label in stack order (above it, then below).
      var source = allowed.label ?? firstLabel
      if source == nil { source = try label(below: allowed.index, number) }
      return Resolution(
        reason: .allowListed, number: number, label: try source?.text(), directory: directory(allowed.index),
        labelDirectory: source.map { directory($0.index) })
    }
    guard let decision else { return Resolution(reason: .notListed, number: number) }
    let decider = directory(decision.index)
    return Resolution(
      reason: decision.blocked ? .blocked : .identified, number: number, label: try decision.label?.text(),
      directory: decider, labelDirectory: decision.label == nil ? nil : decider)
  }

  /// The first label of `number` in the directories below `index`, whatever their role.
  private func label(below index: Int, _ number: Int64) throws(LocatedFormatError) -> LabelSource? {
    var lower = index + 1
    while lower < sources.count {
      let reader = sources[lower].provider.current()
      do {
        if let id = try reader.labelId(for: number) { return LabelSource(index: lower, reader: reader, id: id) }
      } catch {
        throw LocatedFormatError(error: error, index: lower)
      }
      lower += 1
    }
    return nil
  }

  /// The reference to directory `index` that answers carry.
  private func directory(_ index: Int) -> Resolution.Directory {
    Resolution.Directory(index: index, name: sources[index].name)
  }
}

/// A label found for the number: its id in the reader of the directory at `index`, turned into
/// text only if it is the one reported.
struct LabelSource {
  var index: Int
  var reader: CallDirectoryReader
  var id: UInt32

  /// The label's text, from the reader's label cache.
  func text() throws(LocatedFormatError) -> String {
    do throws(FormatError) {
      // `labelId(for:)` checked the id against the label count, so a missing label is damage.
      guard let label = try reader.label(id: Int(id)) else {
        throw FormatError(unplaced: .labelIdOutOfRange(id: id, labelCount: reader.labelCount))
      }
      return label
    } catch {
      throw LocatedFormatError(error: error, index: index)
    }
  }
}
