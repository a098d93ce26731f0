import Testing
@testable import StorykeepServer

@Test func builds() {}
