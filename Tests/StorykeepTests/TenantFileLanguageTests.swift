import Foundation
import StorykeepTestSupport
import Testing

import Storykeep
@testable import StorykeepCore
@testable import StorykeepTenancy
import StorykeepJournals
import StorykeepSafety
import StorykeepTags

/// The tenant file's texts in several languages (``LocalizedText``): a plain string is the English
/// text, a mapping gives each language's, and every mistake is named at its key.
@Suite struct TenantFileLanguageTests {
    func decode(_ yaml: String) throws(TenantFileError) -> TenantFile {
        try TenantFiles.decode(yaml, file: "tenants/sample.yaml")
    }

    /// Every problem of `yaml`, as `key: problem`.
    func problems(_ yaml: String) -> [String] {
        do {
            _ = try TenantFiles.decodeReportingAll(yaml, file: "tenants/sample.yaml", format: StorykeepModules.tenantFileFormat)
            return []
        } catch {
            return error.errors.map { "\($0.keyPath): \($0.problem)" }
        }
    }

    static let welsh = minimalTenantYAML.replacingOccurrences(
        of: "  - { emoji: \"🙂\", label: Okay }", with: "  - { emoji: \"🙂\", label: { en: Okay, cy: Iawn } }")
        + """

        languages: [en, cy]
        checkInQuestion: { en: How are you feeling today?, cy: "Sut wyt ti'n teimlo heddiw?" }
        termsSummary: { en: Your journal is yours., cy: Dy ddyddiadur di yw hwn. }
        suggestedTags: [{ en: school, cy: ysgol }, football]
        prompts:
          - { text: { en: What made you smile today?, cy: Beth wnaeth i ti wenu heddiw? }, moods: [Okay] }
        safety:
          helplines:
            - { name: { en: Emergency services, cy: Gwasanaethau brys }, phone: "999", hours: { en: Any time, cy: Unrhyw bryd } }
        """

    @Test func plainStringsAreEnglishAndMappingsGiveEachLanguage() throws {
        let plain = try decode(minimalTenantYAML)
        #expect(plain.languages == ["en"])
        #expect(plain.checkInQuestion.text(in: "cy") == "How are you feeling today?")
        #expect(plain.termsSummary == nil)

        let tenant = try decode(Self.welsh)
        #expect(tenant.languages == ["en", "cy"])
        #expect(tenant.checkInQuestion.text(in: "cy") == "Sut wyt ti'n teimlo heddiw?")
        #expect(tenant.checkInQuestion.text(in: "pl") == "How are you feeling today?")
        #expect(tenant.moodIcons[0].label == "Okay")
        #expect(tenant.moodIcons[0].labels.text(in: "cy") == "Iawn")
        #expect(tenant.suggestedTags.map { $0.text(in: "cy") } == ["ysgol", "football"])
        #expect(tenant.prompts[0].text.text(in: "cy") == "Beth wnaeth i ti wenu heddiw?")
        #expect(tenant.safety.helplines[0].name.text(in: "cy") == "Gwasanaethau brys")
        #expect(tenant.safety.helplines[0].hours?.text(in: "cy") == "Unrhyw bryd")
        #expect(tenant.termsSummary?.text(in: "cy") == "Dy ddyddiadur di yw hwn.")

        // As `tenant apply` stores it and the server reads it back.
        let stored = try JSONEncoder().encode(tenant)
        let decoder = JSONDecoder()
        decoder.userInfo = StorykeepModules.tenantFileFormat.userInfo
        #expect(try decoder.decode(TenantFile.self, from: stored) == tenant)
        // English alone is stored as the plain string it was.
        let json = String(decoding: try JSONEncoder().encode(plain), as: UTF8.self)
        #expect(json.contains(#""checkInQuestion":"How are you feeling today?""#))
    }

    @Test func aMalformedTranslationIsNamedAtItsKey() {
        let bad = minimalTenantYAML + """

            languages: [en, cy]
            checkInQuestion: { en: How are you?, fr: Comment ça va ? }
            suggestedTags: [{ cy: ysgol }]
            safety:
              helplines:
                - { name: { en: Childline, CY: Llinell Plant }, phone: "0800 1111" }
            """
        let found = problems(bad)
        #expect(found.contains("checkInQuestion.fr: expected one of the agency's languages (en, cy)"), "\(found)")
        #expect(
            found.contains("suggestedTags[0]: expected a text, or texts by language with English (en) among them, the fallback"),
            "\(found)")
        #expect(found.contains("safety.helplines[0].name.CY: expected one of the agency's languages (en, cy)"), "\(found)")
        #expect(found.count == 3, "\(found)")

        #expect(problems(minimalTenantYAML + "\nlanguages: [cy]\n") == ["languages: expected English (en) among them: every text falls back to it"])
        #expect(problems(minimalTenantYAML + "\nlanguages: [en, Welsh]\n").first?.hasPrefix("languages: expected ISO 639 language codes") == true)
        #expect(problems(minimalTenantYAML + "\nlanguages: [en, cy, cy]\n") == ["languages: expected each language once"])
        #expect(problems(minimalTenantYAML + "\ncheckInQuestion: { en: \"\", cy: Helo }\nlanguages: [en, cy]\n").count == 1)
    }
}
