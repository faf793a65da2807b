import Testing

@testable import KiwiGateway

@Suite("Scan start limiter")
struct ScanStartLimiterTests {
    @Test("beyond its capacity a limiter refuses at once, and a finished start frees its slot")
    func boundsConcurrentStarts() async throws {
        let limiter = ScanStartLimiter(capacity: 1)
        let (entered, release) = AsyncStream.makeStream(of: Void.self)
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            await limiter.withSlot {
                release.yield()
                for await _ in gate { break }
                return 1
            }
        }
        for await _ in entered { break }
        #expect(await limiter.withSlot { 2 } == nil)
        open.yield()
        #expect(await holder.value == 1)
        #expect(await limiter.withSlot { 3 } == 3)
    }
}
