import Testing
@testable import Postgres

@Test func builds() {}
