import Dispatch
import Foundation
import Synchronization

/// Runs `program` to its end: `input` on its standard input, and returns its exit status and standard output (with
/// standard error too when `includingStandardError`). Waits without blocking the test run's cooperative pool (two
/// threads) and stops the program after `timeout`.
public func runProgram(
    _ program: String,
    _ arguments: [String],
    input: Data = Data(),
    in directory: URL? = nil,
    includingStandardError: Bool = false,
    timeout: Duration = .seconds(60)
) async throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = includingStandardError ? stdout : FileHandle.nullDevice
    // The output is read as it comes, so a program writing more than a pipe holds never waits for us; on a thread of
    // its own, not through a readability handler: a dispatch source left on a pipe that is then closed (when a
    // program's children keep it open past our wait) can crash libdispatch's event loop.
    let output = Mutex(Data())
    let (ended, end) = AsyncStream.makeStream(of: Void.self)
    let reader = stdout.fileHandleForReading
    // A thread, not a global dispatch queue: readers blocked there would take threads from the small pool that also
    // runs Swift concurrency's tasks.
    Thread {
        while case let chunk = reader.availableData, !chunk.isEmpty {
            output.withLock { $0.append(chunk) }
        }
        end.finish()
    }
    .start()
    let childExit = ChildExit(of: process)
    try process.run()
    try stdin.fileHandleForWriting.write(contentsOf: input)
    try stdin.fileHandleForWriting.close()
    var status = try await childExit.wait(timeout: timeout)
    if status == nil {
        process.terminate()
        status = try await childExit.wait()
    }
    // Children the program left behind (Chromium's helpers) may hold the pipe open: give the rest a moment.
    _ = await withTaskGroup(of: Void.self) { group in
        group.addTask { for await _ in ended {} }
        group.addTask { try? await Task.sleep(for: .seconds(5)) }
        await group.next()
        group.cancelAll()
    }
    return (status ?? -1, String(decoding: output.withLock { $0 }, as: UTF8.self))
}

/// A child process's exit as a test waits for it. Foundation's `Process` learns of an exit only when a socket it
/// handed the child closes, and a process another test spawned at the same moment can inherit that socket and hold it
/// open long after the child is gone (Foundation closes a child's other descriptors by a list it makes before spawning,
/// without a lock); so the kernel is asked as well, without reaping the child, which stays Foundation's to reap.
public final class ChildExit: Sendable {
    private let process: Process
    /// The exit status, once Foundation's termination handler has it.
    private let reaped = Mutex<Int32?>(nil)

    /// Watches `process`, which has not been run yet: its termination handler is this watch's.
    public init(of process: Process) {
        self.process = process
        process.terminationHandler = { [self] finished in reaped.withLock { $0 = finished.terminationStatus } }
    }

    /// The exit status once the process has exited: its code, or the signal that ended it; nil while it runs.
    public var status: Int32? {
        if let status = reaped.withLock({ $0 }) { return status }
        var info = siginfo_t()
        let pid = process.processIdentifier
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0, info._sifields._sigchld.si_pid == pid else { return nil }
        return info._sifields._sigchld.si_status
    }

    /// Waits for the exit, checking every 20 ms, for at most `timeout` (without one, until it comes): its status, or nil
    /// if the process still runs.
    public func wait(timeout: Duration? = nil) async throws -> Int32? {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            if let status { return status }
            if let deadline, ContinuousClock.now >= deadline { return nil }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
