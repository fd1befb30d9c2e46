/// A kind encodes as its raw value, the word listings use (`"block"` or `"identify"`), so that a
/// stored cursor or a service's JSON reads the same as a listing.
///
///     try JSONEncoder().encode([EntryKind.blocking])  // ["block"]
///
/// Decoding any other string throws `DecodingError.dataCorrupted`.
extension EntryKind: Codable {}
