import Foundation
import Testing

/// The documentation examples compiled by the `DocumentationExamples` target are those of the doc
/// comments as they are now (`.ci/doc-examples --check`), so an example edited in a doc comment is
/// compiled as edited.
@Suite struct DocumentationExampleTests {
  @Test func theCompiledExamplesAreTheDocComments() throws {
    let (status, message) = try runCapturingErrors(
      "/usr/bin/env", ["python3", SpecVectorTests.root.appendingPathComponent(".ci/doc-examples").path, "--check"])
    #expect(status == 0, "\(message)")
  }
}
