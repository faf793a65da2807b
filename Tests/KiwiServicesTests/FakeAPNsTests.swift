import Foundation
import KiwiTestSupport
import Testing

/// The fake APNs holds the notifier to Apple's documented rules only if it refuses what Apple refuses: its own tests
/// (`Tools/fake-apns/test_fake_apns.py`) send it every kind of bad request Apple's tables list.
@Suite("The fake APNs")
struct FakeAPNsTests {
    @Test("refuses what Apple's documentation says APNs refuses, and answers as scripted: its own tests pass")
    func ownTestsPass() async throws {
        let python = try testTool("KIWI_TEST_FAKE_APNS_PYTHON")
        let folder = ServiceProcess.checkout.appending(path: "Tools/fake-apns")
        let run = try await runProgram(
            python,
            ["-m", "pytest", "-q", "-p", "no:cacheprovider", "test_fake_apns.py"],
            in: folder,
            includingStandardError: true,
            timeout: .seconds(120)
        )
        #expect(run.status == 0, "\(run.output.suffix(3000))")
    }
}
