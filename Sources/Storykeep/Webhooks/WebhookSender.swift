import Foundation
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// POSTs webhook messages with Foundation's URLSession (on Linux FoundationNetworking, over the
/// system's libcurl: prebuilt with the toolchain, so it costs the build nothing, and speaks TLS).
/// Redirects are not followed: a receiver's answer is its own, as Standard Webhooks want.
final class WebhookSender: Sendable {
    /// What a receiver answered, or why there was no answer.
    struct Outcome: Sendable, Equatable {
        /// The HTTP status, or nil when none came (refused, timed out, bad TLS).
        var statusCode: Int?
        /// Why it failed, in a few words; nil for a 2xx.
        var error: String?

        var delivered: Bool { error == nil }
    }

    private let session: URLSession

    /// A sender whose requests give up after `timeout`.
    init(timeout: Duration) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = Double(timeout.components.seconds)
        configuration.timeoutIntervalForResource = Double(timeout.components.seconds)
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }

    /// POSTs `body` (JSON) to `url` with `headers`.
    func post(_ body: String, to url: String, headers: [String: String]) async -> Outcome {
        guard let address = URL(string: url) else { return Outcome(statusCode: nil, error: "not a URL") }
        var request = URLRequest(url: address)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Storykeep-Webhooks/1", forHTTPHeaderField: "User-Agent")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        do {
            let (_, response) = try await session.data(for: request)
            guard let status = (response as? HTTPURLResponse)?.statusCode else { return Outcome(statusCode: nil, error: "no HTTP answer") }
            return Outcome(statusCode: status, error: (200..<300).contains(status) ? nil : "HTTP \(status)")
        } catch {
            return Outcome(statusCode: nil, error: String(error.localizedDescription.prefix(200)))
        }
    }

    deinit { session.invalidateAndCancel() }
}

/// Answers every redirect with "do not follow": the 3xx itself is the receiver's answer.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
