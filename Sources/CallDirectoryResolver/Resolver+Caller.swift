import CallDirectoryListing

extension Resolver {
  /// Resolves a caller string as it arrives from a network or a PBX: `+1 (202) 555-0100`,
  /// `tel:+1-202-555-0100`, or a national form under the resolver's default country.
  ///
  /// The string is first compared, as written, with the emergency codes; otherwise it is
  /// normalised by ``parser`` (`Spec/INPUT.md` section 1) and resolved as ``resolve(_:)`` does.
  ///
  ///     try resolver.resolve(caller: "tel:+1-202-555-0100").action   // .block
  ///     try resolver.resolve(caller: "911").reason                   // .emergency
  ///
  /// - Returns: the answer; its `number` is `nil` only for an emergency code matched as written.
  /// - Throws: ``ResolveError/invalidNumber(_:)`` when the string is not a phone number (never a
  ///   guess at what was meant); ``ResolveError/damagedDirectory(_:_:)`` naming the directory
  ///   whose damage the lookup met.
  /// - Complexity: O(m + k log n) for a string of m bytes; the parser copies the string's bytes once.
  public func resolve(caller: String) throws(ResolveError) -> Resolution {
    let text: Substring
    switch CallerString(caller) {
    case .withheld: return Resolution(reason: .withheld, number: nil, blocksWithheld: blocksWithheld)
    case .noUserPart: throw .invalidCaller("SIP URI \"\(caller)\" has no user part (the number before @)")
    case .number(let found): text = found
    }
    // The number as written, out of its URI: `sip:112@host` is the emergency code 112.
    if let code = emergencyNumbers.match(caller: String(text)) {
      return Resolution(reason: .emergency, number: nil, emergencyCode: code)
    }
    let number: Int64
    do { number = try parser.parse(text) } catch {
      // A SIP user part that is a name, not a number, is said as such.
      if text.count != caller.count, text.contains(where: \.isLetter) {
        throw .invalidCaller("SIP user part \"\(text)\" is not a number")
      }
      throw .invalidNumber(error)
    }
    do { return try resolveLocated(number) } catch {
      throw .damagedDirectory(Resolution.Directory(index: error.index, name: sources[error.index].name), error.error)
    }
  }
}
