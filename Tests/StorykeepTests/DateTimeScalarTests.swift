import Foundation
import StorykeepCore
import Testing

/// `DateTime`'s text is written by hand for the years 1970 to 9999: it must be what Foundation's
/// `ISO8601FormatStyle` writes, digit for digit, whatever the date (and outside those years it
/// is Foundation's).
@Suite struct DateTimeScalarTests {
    static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    func expectFoundations(_ date: Date, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(DateTimeScalar.string(date) == date.formatted(Self.style), "\(date.timeIntervalSinceReferenceDate)",
                sourceLocation: sourceLocation)
    }

    @Test func theEdgesOfTheYearsWrittenByHandAndAroundThem() {
        let edges: [Double] = [
            0, 0.0004, 0.0005, 0.0009, 0.9995, 0.9999, 1, 59.999, 86_399.999, 86_400,
            951_782_400, 951_868_799.999,  // 2000-02-29, a leap day of a year divisible by 400
            4_107_542_400,  // 2100-03-01, after a 28-day February
            1_800_000_000.1234, 1_800_000_000.9996,
            253_402_300_799.999, 253_402_300_799.9996, 253_402_300_800,  // the last moment of 9999, then 10000
            -0.0005, -0.001, -1, -62_135_596_800, 1e12,
        ]
        for seconds in edges { expectFoundations(Date(timeIntervalSince1970: seconds)) }
        expectFoundations(Date(timeIntervalSinceReferenceDate: .nan))
    }

    @Test func randomMomentsAsFoundationWritesThem() {
        var generator = SystemRandomNumberGenerator()
        for index in 0..<20_000 {
            let seconds: Double
            switch index % 3 {
            case 0: seconds = Double.random(in: 0..<253_402_300_800, using: &generator)
            case 1: seconds = Double(Int64.random(in: 0..<253_402_300_800_000, using: &generator)) / 1000  // whole milliseconds
            default: seconds = Double(Int64.random(in: 1_600_000_000_000_000..<2_000_000_000_000_000, using: &generator)) / 1_000_000
            }
            expectFoundations(Date(timeIntervalSince1970: seconds))
        }
    }
}
