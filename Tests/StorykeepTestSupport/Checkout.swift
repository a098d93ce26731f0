import Foundation
import StorykeepCore

/// The checkout's root (where `Package.swift` is), found from this file's path.
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The checkout's configuration (`Config/storykeep.json`), without the environment.
public func testConfig() async throws -> StorykeepConfig {
    try await StorykeepConfig.load(environment: [:], directory: repositoryRoot.path)
}
