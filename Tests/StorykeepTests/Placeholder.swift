import Testing
@testable import Storykeep

@Test func builds() {}
