import Foundation
import StorykeepCore
import Testing

/// Ids as the API writes them.
@Suite struct IDTests {
    @Test func anIdIsFoundationsCanonicalFormInLowercase() {
        let fixed = [
            UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)),
            UUID(uuidString: "0A784F7D-F7D5-4ECA-8879-DE51987FDACE")!,
        ]
        for id in fixed + (0..<1000).map({ _ in UUID() }) {
            #expect(id.lowercased == id.uuidString.lowercased())
        }
        #expect(fixed[2].lowercased == "0a784f7d-f7d5-4eca-8879-de51987fdace")
    }
}
