import Foundation
import KiwiTestSupport
import Testing

/// The API description against the running system: schemathesis (installed by `make test` into `.run/test-venv`)
/// reads `GET /openapi.json` from a gateway of the system rig, draws requests from it, valid and invalid, and
/// checks every answer against it. It follows the API's links too (its stateful phase: a saved recipe fetched,
/// patched, shared and deleted).
@Suite("The API description fuzzed against the running system")
struct ContractFuzzingTests {
    /// The run's bounds: a fixed seed, so that every run draws the same requests; a few examples per operation and
    /// phase, which keeps the run near a minute on two busy cores; and a time limit that fails it rather than let it
    /// keep `make test` waiting.
    static let seed = "20261126"
    static let examplesPerOperation = "25"
    static let timeLimit = Duration.seconds(180)

    @Test("schemathesis finds no server error, no answer the description does not allow and no valid request refused")
    func schemathesisFindsNothing() async throws {
        let schemathesis = try testTool("KIWI_TEST_SCHEMATHESIS")
        let scripts = ServiceProcess.checkout.appending(path: "Tests/Scripts").path
        let photo = ServiceProcess.checkout.appending(path: "docs/sample-fridge.jpg").path
        // Schemathesis keeps a cache of what it found in its working directory: one of its own, gone afterwards.
        let directory = FileManager.default.temporaryDirectory.appending(path: "kiwi-schemathesis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await SystemRig.run { rig in
            let token = try await rig.signIn(email: "fuzzer@example.com")
            let run = try await runProgram(
                "/usr/bin/env",
                [
                    "PYTHONPATH=\(scripts)", "SCHEMATHESIS_HOOKS=schemathesis_hooks", "KIWI_SCHEMATHESIS_PHOTO=\(photo)",
                    schemathesis, "--config-file", "\(scripts)/schemathesis.toml", "run", rig.gateway.absoluteString + "/openapi.json",
                    "--url", rig.gateway.absoluteString,
                    "--checks", "all", "--phases", "examples,coverage,fuzzing,stateful", "--seed", Self.seed,
                    "--max-examples", Self.examplesPerOperation, "--workers", "1",
                    "--request-timeout", "30", "--header", "Authorization: Bearer \(token)",
                    // Signing out and deleting the account end the session every other request uses; the service tests
                    // cover both.
                    "--exclude-operation-id", "signOut", "--exclude-operation-id", "deleteAccount",
                    // A NUL is refused in every string of a JSON body, names of members Kiwi does not read included:
                    // openapi.yaml says so in words, and patterns say it only of the fields Kiwi reads, so drawn
                    // strings have none. The router tests send NUL everywhere it can go.
                    "--generation-allow-x00", "false", "--generation-database", "none", "--no-color",
                ],
                in: directory,
                includingStandardError: true,
                timeout: Self.timeLimit
            )
            #expect(run.status == 0, "schemathesis failed (status \(run.status)):\n\(run.output.suffix(20_000))")
        }
    }
}
