import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiDevelopment
import KiwiModels
import KiwiScans
import KiwiStrictJSON
import KiwiTestSupport
import XCTest

@testable import KiwiGateway

/// The gateway's workload of the instruction budget (docs/operations.md, "The instruction budget"): blocking scans
/// (`POST /v1/scan`) of a 256 KiB photo through the router on fakes — authentication, the quota, the upload read and
/// checked, the scan reserved, its job handed on, the wait, and the answer of real size (four recipes) written — each
/// answered 200 by a worker at once. An XCTest case for callgrind's sake, as `PipelineInstructionWorkload` says.
final class BlockingScanInstructionWorkload: XCTestCase {
    /// 256 KiB that start as a JPEG does, the rest drawn at random: the gateway reads no more of a photo than its start
    /// and its length (the worker checks the rest), and drawing them costs the run a thousandth of encoding a JPEG.
    static let photo: [UInt8] = {
        var random = SplitMix64(seed: 1)
        return [0xFF, 0xD8, 0xFF, 0xE0] + (0..<32_767).flatMap { _ in withUnsafeBytes(of: random.next(), Array.init) }
    }()

    /// Blocking scans of a 256 KiB photo go through the gateway's router on fakes, each answered 200.
    func testBlockingScans() async throws {
        let repeats = InstructionWorkload.repeats ?? 1
        let answer = try ScanResponseContract.validateModelAnswer(Data(FridgeAnswers.everyFridge[0].serialized().utf8), idSeed: UUID())
        let gateway = FakeGateway(workers: .answer(.ok(answer), modelTime: .seconds(3)), policy: QuotaPolicy(limit: repeats))
        let (token, _, _) = gateway.signIn()
        try await gateway.test { client async throws in
            for _ in 0..<repeats {
                let status = try await client.scan(Self.photo, token: token).status
                XCTAssertEqual(status, .ok)
            }
        }
    }
}
