import CallDirectory
import CallDirectoryAppGroup
import Foundation
import Testing

/// The container's state records (`Spec/APPGROUP.md`, sections 2 to 4): what is written reads
/// back, and any other bytes read as absent, never as a wrong state.
@Suite struct AppGroupStateRecordTests {
  static let holdings: [CallKitHolding] = [
    .unknown, .nothing, .directory(fingerprint: 0xFEDC_BA98_7654_3210),
    .split(
      fingerprint: 7, fromChanges: true, cursor: FeedCursor(kind: .identification, next: Limits.maximumNumber, fingerprint: 9)),
    .split(fingerprint: 8, fromChanges: false, cursor: FeedCursor(kind: .blocking, next: 1, fingerprint: .max)),
  ]

  @Test(arguments: holdings)
  func holdingReadsBackAndAnyDamageReadsAsUnknown(holding: CallKitHolding) throws {
    let folder = try TemporaryContainer()
    let path = folder.path + "/callkit.calldirstate"
    try folder.container.record(holding)
    #expect(folder.container.holding() == holding)
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(bytes.count == 12 + holding.payload.count)
    for offset in 0..<bytes.count {
      for bit in [0, 7] {
        var damaged = bytes
        damaged[offset] ^= 1 << bit
        try damaged.write(to: path)
        #expect(folder.container.holding() == .unknown, "bit \(bit) of byte \(offset)")
      }
    }
    for length in 0..<bytes.count {
      try Array(bytes[0..<length]).write(to: path)
      #expect(folder.container.holding() == .unknown, "cut at \(length)")
    }
  }

  @Test func installedReadsBackAndAnyDamageReadsAsAbsent() throws {
    let phone = try Phone()
    _ = try phone.updater.install(directory: try AppGroupLoaderTests.first.bytes())
    _ = try phone.updater.apply(changeset: try AppGroupLoaderTests.second.changeset(from: AppGroupLoaderTests.first))
    let installed = try #require(phone.folder.container.installed())
    #expect(installed.current.number == 2 && installed.previous?.number == 1 && installed.hasChanges)
    let path = phone.folder.path + "/installed.calldirstate"
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(bytes.count == 53)
    #expect(Array(bytes[0..<8]) == [0x43, 0x44, 0x47, 0x53, 1, 1, 41, 0])
    for offset in 0..<bytes.count {
      var damaged = bytes
      damaged[offset] ^= 0x10
      try damaged.write(to: path)
      #expect(phone.folder.container.installed() == nil, "byte \(offset)")
    }
  }
}
