import Foundation
public import Logging

/// Writes each log line as one JSON object (`log.format: json`), for log shippers that read JSON:
/// `time` (ISO 8601, UTC, milliseconds), `level`, `message`, `label`, and the line's metadata,
/// the request's included (``RequestLogMetadata``), with the request's keys under plain names:
/// `requestId`, `traceId`, `tenant`, `operation`, `status`, `durationMs`. Other metadata keys keep their
/// names; every value is a string.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    public var metadataProvider: Logger.MetadataProvider?
    let label: String
    let write: @Sendable (String) -> Void

    /// Renamed metadata keys: what the request log and ``RequestLogMetadata`` call them → JSON.
    static let names = ["hb.request.id": "requestId", "trace_id": "traceId", "http.status": "status", "duration_ms": "durationMs"]

    /// `write` receives each line, newline included (standard output by default).
    public init(
        label: String, metadataProvider: Logger.MetadataProvider? = nil,
        write: @escaping @Sendable (String) -> Void = { line in FileHandle.standardOutput.write(Data(line.utf8)) }
    ) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let all = (metadataProvider?.get() ?? [:]).merging(metadata) { $1 }.merging(event.metadata ?? [:]) { $1 }
        var object: [String: String] = [:]
        for (key, value) in all { object[Self.names[key] ?? key] = "\(value)" }
        object["time"] = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
        object["level"] = event.level.rawValue
        object["message"] = "\(event.message)"
        object["label"] = label
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        write(String(decoding: data, as: UTF8.self) + "\n")
    }
}
