import Foundation
import HTTPTypes
import HummingbirdTesting
import KiwiDevelopment
import KiwiInternalAPI
import KiwiModels
import KiwiScans
import KiwiStrictJSON
import KiwiTestSupport
import XCTest

@testable import KiwiGateway

/// The gateway's workload of the instruction budget (docs/operations.md, "The instruction budget"): blocking scans
/// (`POST /v1/scan`) of a 256 KiB photo through the router on fakes — authentication, the quota, the upload read and
/// checked, the scan reserved, its job handed on, the wait, and the answer of real size (four recipes) costed and
/// written — each answered 200 by a worker at once. An XCTest case for callgrind's sake, as `PipelineInstructionWorkload` says.
final class BlockingScanInstructionWorkload: XCTestCase {
    /// 256 KiB that start as a JPEG does, the rest drawn at random: the gateway reads no more of a photo than its start
    /// and its length (the worker checks the rest), and drawing them costs the run a thousandth of encoding a JPEG.
    static let photo: [UInt8] = {
        var random = SplitMix64(seed: 1)
        return [0xFF, 0xD8, 0xFF, 0xE0] + (0..<32_767).flatMap { _ in withUnsafeBytes(of: random.next(), Array.init) }
    }()

    /// Blocking scans of a 256 KiB photo go through the gateway's router on fakes, each answered 200.
    func testBlockingScans() async throws {
        try await scan(householdOf: 1)
    }

    /// The same scans by a member of a household of four, each with a profile (the household leg of the budget): the
    /// table read, combined and seated on every scan.
    func testBlockingScansForAHousehold() async throws {
        try await scan(householdOf: 4)
    }

    /// The same scans by a person whose kitchen has a price for every ingredient of the answer (the prices leg of the
    /// budget): each recipe costed as the answer is written.
    func testBlockingScansAtKitchenPrices() async throws {
        try await scan(householdOf: 1, priced: true)
    }

    /// Scans by one person, in a household of `size` when it is more than one, their kitchen's food priced if `priced`.
    private func scan(householdOf size: Int, priced: Bool = false) async throws {
        let repeats = InstructionWorkload.repeats ?? 1
        let answer = try ScanResponseContract.validateModelAnswer(Data(FridgeAnswers.everyFridge[0].serialized().utf8), idSeed: UUID())
        let gateway = FakeGateway(workers: .answer(.ok(answer), modelTime: .seconds(3)), policy: QuotaPolicy(limit: repeats))
        let (token, session, _) = gateway.signIn()
        if size > 1 {
            let household = HouseholdRecord(id: UUID(), name: "Home", createdAt: Date(), members: [])
            let members = [session.userId] + (1..<size).map { _ in UUID() }
            for (index, userID) in members.enumerated() {
                try await gateway.profiles.save(KitchenProfile(allergies: [KitchenProfile.Allergen.allCases[index]]), for: userID)
                let member = HouseholdMemberRecord(id: UUID(), userID: userID, displayName: "Member \(index)", joinedAt: Date())
                if index == 0 {
                    _ = try await gateway.households.create(household, creator: member)
                } else {
                    let code = InvitationCode.make().hash
                    _ = try await gateway.households.invite(codeHash: code, by: session.userId, expiresAt: .distantFuture, now: Date())
                    _ = try await gateway.households.join(codeHash: code, member: member, now: Date(), capacity: 12, limits: .standard)
                }
            }
        }
        if priced {
            let names = Set(answer.recipes.flatMap { $0.ingredients.map(\.name) })
            try await RecipeCostRouterTests.stock(
                gateway,
                user: session.userId,
                names.map { ($0, PantryPrice(amount: 2.5, unit: .kg, currency: "EUR")) }
            )
        }
        try await gateway.test { client async throws in
            InstructionWorkload.startCounting()
            for _ in 0..<repeats {
                let status = try await client.scan(Self.photo, token: token).status
                XCTAssertEqual(status, .ok)
            }
        }
    }
}
