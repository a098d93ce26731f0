import Testing
@testable import storykeep

@Test func builds() {}
