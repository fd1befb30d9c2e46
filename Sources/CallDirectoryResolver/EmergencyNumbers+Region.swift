import CallDirectoryListing

extension EmergencyNumbers {
  /// This set with `region`'s emergency numbers added, as libphonenumber's short-number metadata
  /// lists them in the numbering plan (`15`, `17` and `18` for `FR`; `100` to `108` for `IN`).
  ///
  /// The plan's codes are 2 to 6 digits, always valid codes; should one not be, the set is
  /// returned unchanged rather than trapping.
  /// - Complexity: O(c log c) in the count of codes.
  public func adding(region: NumberingRegion) -> EmergencyNumbers {
    (try? EmergencyNumbers(codes + region.emergencyNumbers)) ?? self
  }
}
