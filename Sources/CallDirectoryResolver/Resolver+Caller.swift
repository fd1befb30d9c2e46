import CallDirectoryListing

extension Resolver {
  /// Resolves a caller string as it arrives from a network or a PBX: `+1 (202) 555-0100`,
  /// `tel:+1-202-555-0100`, or a national form under the resolver's default country.
  ///
  /// The string is first compared, as written, with the emergency codes; otherwise it is
  /// normalised by ``parser`` (`Spec/INPUT.md` section 1) and resolved as ``resolve(_:)`` does.
  ///
  ///     print(try resolver.resolve(caller: "tel:+1-202-555-0100").action)  // block
  ///     print(try resolver.resolve(caller: "911").reason)                   // emergency
  ///
  /// - Returns: the answer; its `number` is `nil` only for an emergency code matched as written.
  /// - Throws: ``ResolveError/invalidNumber(_:)`` when the string is not a phone number (never a
  ///   guess at what was meant); ``ResolveError/damagedDirectory(_:_:)`` naming the directory
  ///   whose damage the lookup met.
  /// - Complexity: O(m + k log n) for a string of m bytes; the parser copies the string's bytes once.
  public func resolve(caller: String) throws(ResolveError) -> Resolution {
    let text: Substring
    var sipUser = false
    switch CallerString(caller) {
    case .withheld: return Resolution(reason: .withheld, number: nil, blocksWithheld: blocksWithheld)
    case .noUserPart: throw .invalidCaller("SIP URI \"\(caller)\" has no user part (the number before @)")
    case .malformedAddress(let reason): throw .invalidCaller("caller \"\(caller)\" \(reason)")
    case .localSIPUser(let user):
      throw .invalidCaller(
        "SIP user part \"\(user)\" is a local number in a phone-context, which is not read: write it as a global number (+)")
    case .number(let found): text = found
    case .sipUser(let found):
      text = found
      sipUser = true
    }
    // The number as written, out of its URI: `sip:112@host` is the emergency code 112.
    if let code = emergencyNumbers.match(caller: String(text)) {
      return Resolution(reason: .emergency, number: nil, emergencyCode: code)
    }
    let number: Int64
    do { number = try parser.parse(text) } catch {
      // A SIP user part that is a name, not a number, is said as such.
      if sipUser, text.contains(where: \.isLetter) { throw .invalidCaller("SIP user part \"\(text)\" is not a number") }
      throw .invalidNumber(error)
    }
    return try resolveNamingDamage(number)
  }
}

extension Resolver {
  /// Resolves a caller string given as its UTF-8 bytes, as a line of a pipe arrives: the same
  /// answer, or the same error, as ``resolve(caller:)`` gives for the bytes decoded as UTF-8
  /// (an invalid sequence read as U+FFFD).
  ///
  /// A caller in the form PBXs and listings use most, `+` and the digits (or the digits alone
  /// when the resolver has no default country), is read straight from the bytes: no string is
  /// built, and nothing is allocated but the reported label. Any other caller is decoded and
  /// resolved as ``resolve(caller:)`` does.
  ///
  ///     let line: [UInt8] = Array("+12025550100".utf8)
  ///     print(try resolver.resolve(callerUTF8: line.span).action)  // block
  ///
  /// - Returns: the answer; its `number` is `nil` only for an emergency code matched as written
  ///   or a withheld caller.
  /// - Throws: ``ResolveError``, as ``resolve(caller:)`` does.
  /// - Complexity: O(m + k log n) for m bytes and k directories of at most n entries.
  public func resolve(callerUTF8 bytes: Span<UInt8>) throws(ResolveError) -> Resolution {
    let number = unsafe bytes.withUnsafeBufferPointer { buffer in
      unsafe parser.international(in: UnsafeRawBufferPointer(buffer), from: 0, to: buffer.count)
    }
    if let number {
      // Digits without `+` may be an emergency code as written (`000`, `112`); the parser's
      // fast form has no blanks or separators to set aside, and a leading `+` matches no code.
      if bytes[0] != 0x2B {
        let text = Self.decoded(bytes)
        if let code = emergencyNumbers.match(caller: text) {
          return Resolution(reason: .emergency, number: nil, emergencyCode: code)
        }
      }
      return try resolveNamingDamage(number)
    }
    return try resolve(caller: Self.decoded(bytes))
  }

  /// The bytes decoded as UTF-8, an invalid sequence as U+FFFD.
  private static func decoded(_ bytes: Span<UInt8>) -> String {
    unsafe bytes.withUnsafeBufferPointer { unsafe String(decoding: $0, as: UTF8.self) }
  }
}
