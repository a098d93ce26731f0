import Foundation
import Testing

extension TenantCommandTests {
    /// Issue 17, languages: `tenant apply --check` names a malformed translation at its key, with
    /// the file's other problems, without a database.
    @Test func checkReportsAMalformedTranslation() async throws {
        let (dir, slug) = try tenantDirectory(
            extra: "languages: [en, cy]\ncheckInQuestion: { en: How are you?, pl: Jak się masz? }\nsuggestedTags: [{ cy: ysgol }]")
        let result = try await Storykeep.run("tenant", "apply", "--check", dir)
        #expect(result.status != 0)
        let file = "\(dir)/\(slug).yaml"
        for problem in [
            "\(file): checkInQuestion.pl: expected one of the agency's languages (en, cy)",
            "\(file): suggestedTags[0]: expected a text, or texts by language with English (en) among them, the fallback",
        ] {
            #expect(result.errors.contains(problem), "\(problem) in \(result.errors)")
        }
    }
}
