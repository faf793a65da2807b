import Crypto
import Foundation
import KiwiTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A service executable from this build (or another program, such as Prometheus), run as a real child process.
final class ServiceProcess: Sendable {
    private let process: Process
    private let output: Pipe
    /// What the process wrote so far. The pipe is read as the process writes: a service that logs more than a pipe
    /// holds (64 KiB) would otherwise block on its next log line.
    private let captured = Mutex(Data())
    /// Signalled once the pipe reached its end (the process and its children closed it).
    private let drained = DispatchSemaphore(value: 0)
    private let childExit: ChildExit

    /// Starts `name` (e.g. `kiwi-gateway`) with exactly the given environment, in `directory` (else the test's own).
    convenience init(_ name: String, arguments: [String] = [], environment: [String: String], in directory: URL? = nil) throws {
        try self.init(executable: Self.buildDirectory.appending(path: name), arguments: arguments, environment: environment, in: directory)
    }

    /// Starts the program at `executable` with exactly the given environment, in `directory` (else the test's own).
    init(executable: URL, arguments: [String] = [], environment: [String: String], in directory: URL? = nil) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        if let directory { process.currentDirectoryURL = directory }
        output = Pipe()
        process.standardOutput = output
        process.standardError = output
        childExit = ChildExit(of: process)
        try process.run()
        // A thread of its own, blocked in read(2) for the process's whole life: on a global dispatch queue, a few such
        // readers would take every thread of its small pool, and with it the tasks Swift concurrency runs there.
        let reader = output.fileHandleForReading
        let thread = Thread { [self] in
            while case let chunk = reader.availableData, !chunk.isEmpty {
                captured.withLock { $0.append(chunk) }
            }
            drained.signal()
        }
        thread.name = "output of \(executable.lastPathComponent)"
        thread.start()
    }

    /// The folder holding the executables: the one this test binary was built into.
    static var buildDirectory: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// The source checkout this build belongs to (the folder holding `.build`).
    static var checkout: URL {
        URL(fileURLWithPath: buildDirectory.path.components(separatedBy: "/.build").first ?? "/")
    }

    /// The process id.
    var pid: Int32 { process.processIdentifier }

    /// Sends a signal (SIGTERM, SIGINT) to the process.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// The exit status once the process has exited: its code, or the signal that ended it; nil while it runs.
    var exitStatus: Int32? { childExit.status }

    /// Waits for the process to exit and returns its status, or nil if it is still running after `timeout` (then it is
    /// killed: a hung process is not left behind).
    func waitForExit(timeout: Duration = .seconds(20)) async -> Int32? {
        guard let status = try? await childExit.wait(timeout: timeout) else {
            kill(pid, SIGKILL)
            return nil
        }
        return status
    }

    /// What the process wrote to standard output and error so far: everything, once it exited.
    func capturedOutput() -> String {
        if exitStatus != nil { _ = drained.wait(timeout: .now() + 5) }
        return String(decoding: captured.withLock { $0 }, as: UTF8.self)
    }

    /// Polls `GET url` until it answers, for at most `timeout`; returns the status code, or nil.
    func waitUntilServing(_ url: URL, timeout: Duration = .seconds(60)) async -> Int? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, exitStatus == nil {
            if let (_, response) = try? await URLSession.shared.data(from: url), let http = response as? HTTPURLResponse {
                return http.statusCode
            }
            try? await Task.sleep(for: .milliseconds(200))
        }
        return nil
    }
}

/// The auth service's `QUOTA_KEY_SECRET` in the tests, so that they can work out a person's quota key as it does.
let testQuotaKeySecret = String(repeating: "q", count: 32)

/// A complete, valid environment for every service, pointing at the PostgreSQL and RabbitMQ that `make test` started,
/// with a metrics port of its own (the default ports would collide between tests running at once, or with `make run`).
func serviceEnvironment(port: Int) throws -> [String: String] {
    let environment = ProcessInfo.processInfo.environment
    return [
        "PORT": String(port),
        "METRICS_PORT": String(try reservePort()),
        "KIWI_ENV": "development",
        "LOG_LEVEL": "info",
        "DATABASE_URL": try #require(environment["KIWI_TEST_DATABASE_URL"], "run the tests with `make test`"),
        "AMQP_URL": try #require(environment["KIWI_TEST_AMQP_URL"], "run the tests with `make test`"),
        "INTERNAL_API_TOKEN": String(repeating: "t", count: 32),
        "QUOTA_KEY_SECRET": testQuotaKeySecret,
        "AUTH_SERVICE_URL": "http://127.0.0.1:8081",
        "APPLE_CLIENT_ID": "app.kiwi.ios,app.kiwi.web",
        "OPENAI_API_KEY": "sk-test",
        // The notifier's: a key of the tests' own, and a queue of its own, so that it takes no other test's news.
        "APNS_TEAM_ID": "KIWITEAM01",
        "APNS_KEY_ID": "KIWIKEY001",
        "APNS_KEY": testAPNsKey,
        "NOTIFIER_QUEUE": "kiwi.test.notifier.\(UUID().uuidString.lowercased())",
    ]
}

/// A P-256 signing key in the form of Apple's `.p8` files, made for the test run.
let testAPNsKey = P256.Signing.PrivateKey().pemRepresentation
