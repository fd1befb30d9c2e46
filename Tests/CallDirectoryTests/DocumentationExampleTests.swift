import Foundation
import Testing

/// The documentation examples compiled by the `DocumentationExamples` target are those of the doc
/// comments as they are now (`.ci/doc-examples --check`), so an example edited in a doc comment is
/// compiled as edited.
@Suite struct DocumentationExampleTests {
  @Test func theCompiledExamplesAreTheDocComments() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", SpecVectorTests.root.appendingPathComponent(".ci/doc-examples").path, "--check"]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(process.terminationStatus == 0, "\(message)")
  }
}
