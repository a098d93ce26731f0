import Foundation
import StorykeepTestSupport
import Testing

/// Two `storykeep serve` processes, the built binary, behind Debian's haproxy on loopback
/// (`scripts/lb.sh`), on the database `environment` names, until ``stop()``. As ``Served`` it is
/// haproxy; ``servers`` are the two behind it.
final class LoadBalancer: Served {
    let root: String
    /// haproxy's `http://127.0.0.1:<port>`.
    let baseURL: String
    /// The two servers, straight (`s1`, `s2` to haproxy).
    let servers: [DirectServer]

    /// One server behind the load balancer, asked directly.
    struct DirectServer: Served {
        let baseURL: String
    }

    private static var script: String { repositoryRoot.appending(path: "scripts/lb.sh").path }

    init(environment: [String: String]) async throws {
        let variables = environment.map { "\($0.key)=\($0.value)" }
        let (status, output) = await Shell.run(["env"] + variables + [Self.script, "start", try ServeProcess.binary.path])
        let exports = Shell.exports(in: output)
        root = try #require(exports["STORYKEEP_LB_ROOT"], "scripts/lb.sh start failed (\(status)): \(output)")
        baseURL = try #require(exports["STORYKEEP_LB_URL"])
        servers = try [1, 2].map { DirectServer(baseURL: try #require(exports["STORYKEEP_LB_SERVER\($0)_URL"])) }
    }

    /// `kill -9` of server `number` (1 or 2): it stops mid-request, nothing drained.
    func kill(server number: Int) async throws {
        let (status, output) = await Shell.run([Self.script, "kill-server", root, "\(number)"])
        try #require(status == 0, "lb.sh kill-server \(number): \(output)")
    }

    /// Each server as haproxy sees it, a line each: `s1 DOWN, 0 retried, 5 redispatched`.
    func state() async -> [String] {
        await Shell.run([Self.script, "state", root]).output.split(separator: "\n").map(String.init)
    }

    /// What server `number` wrote (its log).
    func log(server number: Int) -> String {
        (try? String(contentsOfFile: "\(root)/server\(number).log", encoding: .utf8)) ?? ""
    }

    /// haproxy's log: the requests that went wrong (an HTTP log line each) and the servers'
    /// changes of state.
    var haproxyLog: String {
        (try? String(contentsOfFile: "\(root)/haproxy.log", encoding: .utf8)) ?? ""
    }

    /// Stops haproxy and the servers, and removes the folder.
    func stop() {
        Shell.runNow([Self.script, "stop", root])
    }
}
