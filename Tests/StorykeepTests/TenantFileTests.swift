import Foundation
import StorykeepTestSupport
import Testing

import Storykeep
@testable import StorykeepCore
@testable import StorykeepTenancy
import StorykeepJournals
import StorykeepRewards

/// The smallest valid tenant file, for tests to change one thing in.
let minimalTenantYAML = """
    slug: sample
    displayName: Sample Agency
    timeZone: Europe/London
    termsVersion: "1"
    modules: [tags]
    moodIcons:
      - { emoji: "🙂", label: Okay }
    """

@Suite struct TenantFileTests {
    func decode(_ yaml: String) throws(TenantFileError) -> TenantFile {
        try TenantFiles.decode(yaml, file: "tenants/sample.yaml")
    }

    func error(_ yaml: String) -> TenantFileError? {
        do {
            _ = try decode(yaml)
            return nil
        } catch {
            return error
        }
    }

    @Test func theDemoFileIsValid() throws {
        let demo = try TenantFiles.load(file: repositoryRoot.appendingPathComponent("tenants/demo.yaml").path)
        #expect(demo.slug == "demo")
        #expect(demo.timeZone == "Europe/London")
        #expect(demo.enables(TenantModule(rawValue: "sharing")))
        #expect(demo.moodIcons.count >= 6)
        #expect(demo.rewards.rules.contains { $0.on == .streak && $0.days == 7 })
        #expect((8...12).contains(demo.rewards.achievements.count))
        #expect(Set(demo.rewards.achievements.map(\.condition.count)) == Set(AchievementCondition.Count.allCases))
        #expect(demo.rewards.unlockables.contains { $0.isFree })
        #expect(demo.uploads.maxBytes == 25 * 1_048_576)
    }

    @Test func optionalKeysTakeTheirDefaults() throws {
        let tenant = try decode(minimalTenantYAML)
        #expect(tenant.hosts == [])
        #expect(tenant.archive.retentionDays == 30)
        #expect(tenant.lockout == LockoutPolicy(freeAttempts: 2, maxBackoffSeconds: 900))
        #expect(tenant.passwords.minLength == 10)
        #expect(tenant.uploads.maxMegabytes == 25)
        #expect(tenant.checkInQuestion == "How are you feeling today?")
        #expect(tenant.rewards == Rewards())
        #expect(!tenant.enables(TenantModule(rawValue: "sharing")))
    }

    @Test func anUnknownKeyIsNamedWithItsPath() {
        let found = error(minimalTenantYAML + "\narchive:\n  retentionDay: 7\n")
        #expect(found?.file == "tenants/sample.yaml")
        #expect(found?.keyPath == "archive.retentionDay")
        #expect(found?.problem.hasPrefix("unknown key; expected one of: retentionDays") == true)
    }

    @Test func anUnknownTopLevelKeyIsRefused() {
        let found = error(minimalTenantYAML + "\ntimezone: Europe/Paris\n")
        #expect(found?.keyPath == "timezone")
        #expect(found?.problem.contains("timeZone") == true)
    }

    @Test func aWrongTypeSaysWhatWasExpected() {
        let found = error(minimalTenantYAML + "\nlockout:\n  maxBackoffSeconds: soon\n")
        #expect(found?.keyPath == "lockout.maxBackoffSeconds")
        #expect(found?.problem == "expected a whole number")
        #expect(found?.description == "tenants/sample.yaml: lockout.maxBackoffSeconds: expected a whole number")
    }

    @Test func aScalarWhereAListBelongsIsAWrongType() {
        let found = error(minimalTenantYAML + "\nhosts: journal.example.org\n")
        #expect(found?.keyPath == "hosts")
        #expect(found?.problem == "expected a list")
    }

    @Test func aMissingRequiredKeyIsNamed() {
        let yaml = minimalTenantYAML.replacingOccurrences(of: "timeZone: Europe/London\n", with: "")
        let found = error(yaml)
        #expect(found?.keyPath == "timeZone")
        #expect(found?.problem == "expected a value: this key is required")
    }

    @Test func aKeyInsideAListIsNamedWithItsPosition() {
        let found = error(minimalTenantYAML + "\n  - { label: Sad }\n")
        #expect(found?.keyPath == "moodIcons[1].emoji")
        #expect(found?.problem == "expected a value: this key is required")
    }

    @Test func anUnknownModuleListsTheKnownOnes() {
        let found = error(minimalTenantYAML.replacingOccurrences(of: "modules: [tags]", with: "modules: [tags, socail]"))
        #expect(found?.keyPath == "modules[1]")
        #expect(found?.problem == "expected one of: tags, archive, rewards, sharing, export, social, messaging; found \"socail\"")
    }

    @Test func aModuleAnnouncedButNotBuiltIsRefusedByName() {
        // Nothing is announced now (messaging landed): a format announcing one of its own.
        var format = StorykeepModules.tenantFileFormat
        format.unavailableModuleNames = ["forum"]
        do {
            _ = try TenantFiles.decode(minimalTenantYAML.replacingOccurrences(of: "modules: [tags]", with: "modules: [tags, forum]"), file: "tenants/sample.yaml", format: format)
            Issue.record("an announced module was accepted")
        } catch {
            #expect(error.keyPath == "modules[1]")
            #expect(error.problem == "the module \"forum\" is not available yet; expected one of: tags, archive, rewards, sharing, export, social, messaging")
        }
    }

    @Test func everyProblemOfAFileIsListedNotOnlyTheFirst() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tenants-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let yaml = minimalTenantYAML
            .replacingOccurrences(of: "Europe/London", with: "Mars/Olympus")
            .replacingOccurrences(of: "modules: [tags]", with: "modules: [tags, socail]")
            + "\nlockout: { maxBackoffSeconds: soon }\ncolour: blue\nsafety: { escalateAfterMinutes: 0 }\n"
        try yaml.write(to: directory.appendingPathComponent("sample.yaml"), atomically: true, encoding: .utf8)
        do {
            _ = try TenantFiles.load(directory: directory.path)
            Issue.record("a file with five problems was accepted")
        } catch {
            #expect(error.errors.map(\.keyPath) == ["colour", "timeZone", "modules[1]", "lockout.maxBackoffSeconds", "safety.escalateAfterMinutes"])
            #expect(Set(error.errors.map(\.file)) == [directory.appendingPathComponent("sample.yaml").path])
        }
    }

    @Test func valuesOutOfRangeAreRefused() {
        #expect(error(minimalTenantYAML + "\narchive: { retentionDays: 0 }\n")?.keyPath == "archive.retentionDays")
        #expect(error(minimalTenantYAML + "\npasswords: { minLength: 6 }\n")?.problem == "expected a length from 10 to 128")
        #expect(error(minimalTenantYAML + "\nuploads: { maxMegabytes: 5000 }\n")?.keyPath == "uploads.maxMegabytes")
        #expect(error(minimalTenantYAML.replacingOccurrences(of: "Europe/London", with: "Mars/Olympus"))?.keyPath == "timeZone")
        #expect(error(minimalTenantYAML.replacingOccurrences(of: "slug: sample", with: "slug: Sample Agency"))?.keyPath == "slug")
        #expect(error(minimalTenantYAML + "\nhosts: [Journal.Example.org:8080]\n")?.keyPath == "hosts")
    }

    @Test func rewardRulesAreChecked() {
        let streakWithoutDays = minimalTenantYAML + "\nrewards:\n  rules:\n    - { id: streak, on: streak, stars: 5 }\n"
        #expect(error(streakWithoutDays)?.keyPath == "rewards.rules[0].days")
        let daysOnCheckIn = minimalTenantYAML + "\nrewards:\n  rules:\n    - { id: daily, on: checkIn, stars: 1, days: 3 }\n"
        #expect(error(daysOnCheckIn)?.problem == "expected no days except for a streak rule")
        let unknownEvent = minimalTenantYAML + "\nrewards:\n  rules:\n    - { id: daily, on: login, stars: 1 }\n"
        #expect(error(unknownEvent)?.keyPath == "rewards.rules[0].on")
    }

    @Test func achievementsAreCheckedAndNamedByTheirKey() throws {
        func achievement(_ fields: String) -> String {
            minimalTenantYAML + "\nrewards:\n  achievements:\n    - { id: first, name: First, description: The first., icon: \"🌟\", \(fields) }\n"
        }
        let valid = try decode(achievement("condition: { entries: 5, kind: drawing }, stars: 2"))
        #expect(valid.rewards.achievements == [
            Achievement(id: "first", name: "First", description: "The first.", icon: "🌟",
                        condition: AchievementCondition(.entries, atLeast: 5, kind: .drawing), stars: 2),
        ])
        let noCondition = error(achievement("stars: 2"))
        #expect(noCondition?.description == "tenants/sample.yaml: rewards.achievements[0].condition: expected a value: this key is required")
        let twoCounts = error(achievement("condition: { entries: 1, shares: 1 }"))
        #expect(twoCounts?.keyPath == "rewards.achievements[0].condition")
        #expect(twoCounts?.problem == "expected one of entries, checkIns, streak, shares, distinctTags with a number")
        #expect(error(achievement("condition: { logins: 3 }"))?.keyPath == "rewards.achievements[0].condition.logins")
        #expect(error(achievement("condition: { streak: 1 }"))?.problem == "expected a streak length in days from 2 to 365")
        #expect(error(achievement("condition: { shares: 0 }"))?.keyPath == "rewards.achievements[0].condition.shares")
        #expect(error(achievement("condition: { shares: 1, kind: text }"))?.problem == "expected no kind except with entries")
        #expect(error(achievement("condition: { entries: 1, kind: poem }"))?.problem == "expected one of: text, audio, video, drawing, image, mood")
        #expect(error(achievement("condition: { checkIns: 3 }, stars: 0"))?.keyPath == "rewards.achievements[0].stars")
        let twoEmoji = error(minimalTenantYAML + "\nrewards:\n  achievements:\n    - { id: a, name: A, description: A., icon: \"🌟🌟\", condition: { shares: 1 } }\n")
        #expect(twoEmoji?.keyPath == "rewards.achievements[0].icon")
        #expect(twoEmoji?.problem == "expected one emoji")
        let longName = String(repeating: "n", count: 101)
        #expect(error(minimalTenantYAML + "\nrewards:\n  achievements:\n    - { id: a, name: \(longName), description: A., icon: \"🌟\", condition: { shares: 1 } }\n")?.problem == "expected a name of 1 to 100 characters")
        let twice = error(minimalTenantYAML + "\nrewards:\n  achievements:\n    - { id: a, name: A, description: A., icon: \"🌟\", condition: { shares: 1 } }\n    - { id: a, name: B, description: B., icon: \"🌟\", condition: { shares: 2 } }\n")
        #expect(twice?.keyPath == "rewards.achievements" && twice?.problem == "expected each id once")
        #expect(error(minimalTenantYAML + "\nrewards:\n  visibleToTeam: sometimes\n")?.description == "tenants/sample.yaml: rewards.visibleToTeam: expected true or false")
        #expect(error(minimalTenantYAML + "\nrewards:\n  unlockables:\n    - { id: a, kind: theme, name: A, stars: -1 }\n")?.keyPath == "rewards.unlockables[0].stars")
    }

    /// What `tenant apply` stores in `tenants.config` is read back as the same file.
    @Test func achievementsSurviveTheStoredConfiguration() throws {
        let demo = try TenantFiles.load(file: repositoryRoot.appendingPathComponent("tenants/demo.yaml").path)
        let stored = try JSONEncoder().encode(demo)
        let decoder = JSONDecoder()
        decoder.userInfo = StorykeepModules.tenantFileFormat.userInfo
        #expect(try decoder.decode(TenantFile.self, from: stored) == demo)
    }

    @Test func promptsMayOnlyNameMoodsThatExist() {
        let found = error(minimalTenantYAML + "\nprompts:\n  - { text: Why?, moods: [Grumpy] }\n")
        #expect(found?.keyPath == "prompts")
        #expect(found?.problem.contains("Grumpy") == true)
    }

    @Test func brokenYAMLIsReportedForTheFile() {
        let found = error("slug: [unclosed\n")
        #expect(found?.file == "tenants/sample.yaml")
        #expect(found?.keyPath == "")
        #expect(found?.problem.hasPrefix("expected YAML: ") == true)
        #expect(found?.problem.contains("line 2") == true || found?.problem.contains("1:") == true, "\(found?.problem ?? "")")
    }

    @Test func theChangedKeysOfTwoConfigurationsAreDotted() throws {
        let old = #"{"slug":"a","lockout":{"freeAttempts":5,"maxBackoffSeconds":900},"hosts":["a.example"]}"#
        let new = #"{"slug":"a","lockout":{"freeAttempts":3,"maxBackoffSeconds":900},"hosts":["a.example","b.example"],"x":1}"#
        #expect(try TenantFile.changedKeys(from: Data(old.utf8), to: Data(new.utf8)) == ["hosts", "lockout.freeAttempts", "x"])
        #expect(try TenantFile.changedKeys(from: Data(old.utf8), to: Data(old.utf8)) == [])
    }
}

@Suite struct TenantDirectoryTests {
    /// A fresh directory holding `files` (name → YAML).
    func directory(_ files: [String: String]) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tenants-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return url.path
    }

    func errors(_ directory: String) -> [TenantFileError] {
        do {
            _ = try TenantFiles.load(directory: directory)
            return []
        } catch {
            return error.errors
        }
    }

    @Test func theCheckoutsTenantsLoad() throws {
        let tenants = try TenantFiles.load(directory: repositoryRoot.appendingPathComponent("tenants").path)
        #expect(tenants.map(\.slug).contains("demo"))
    }

    @Test func everyBadFileIsListedAndNothingIsReturned() throws {
        let dir = try directory([
            "sample.yaml": minimalTenantYAML,
            "other.yaml": minimalTenantYAML.replacingOccurrences(of: "slug: sample", with: "slug: other") + "\nextra: 1\n",
            "third.yaml": minimalTenantYAML.replacingOccurrences(of: "slug: sample", with: "slug: third")
                .replacingOccurrences(of: "termsVersion: \"1\"\n", with: ""),
            "README.md": "not a tenant",
        ])
        let found = errors(dir)
        #expect(found.map(\.file) == [dir + "/other.yaml", dir + "/third.yaml"])
        #expect(found.map(\.keyPath) == ["extra", "termsVersion"])
    }

    @Test func aSlugMustMatchItsFileName() throws {
        let dir = try directory(["renamed.yaml": minimalTenantYAML])
        let found = errors(dir)
        #expect(found.count == 1)
        #expect(found.first?.keyPath == "slug")
        #expect(found.first?.problem == "expected \"renamed\", the file's name; found \"sample\"")
    }

    @Test func aHostClaimedByTwoFilesIsRefused() throws {
        let withHost = minimalTenantYAML + "\nhosts: [journal.example.org]\n"
        let dir = try directory([
            "sample.yaml": withHost,
            "other.yaml": withHost.replacingOccurrences(of: "slug: sample", with: "slug: other"),
        ])
        let found = errors(dir)
        #expect(found.count == 1)
        #expect(found.first?.keyPath == "hosts")
        #expect(found.first?.problem.contains("journal.example.org is already a host of") == true)
    }

    @Test func anEmptyDirectoryIsAnError() throws {
        #expect(errors(try directory([:])).first?.problem == "expected at least one <slug>.yaml file")
    }
}
