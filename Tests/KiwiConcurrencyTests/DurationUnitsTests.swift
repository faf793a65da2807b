import KiwiConcurrency
import Testing

@Suite("Durations from header values")
struct DurationUnitsTests {
    @Test("whole and decimal milliseconds up to a day are read")
    func readsMilliseconds() {
        #expect(Duration(milliseconds: "2003") == .milliseconds(2003))
        #expect(Duration(milliseconds: "12.5") == .microseconds(12_500))
        #expect(Duration(milliseconds: "86400000") == .seconds(86_400))
    }

    @Test("negative, non-finite, beyond a day or non-numeric values are refused")
    func refusesNonsense() {
        for text in ["-1", "inf", "nan", "86400001", "1e300", "soon", ""] { #expect(Duration(milliseconds: text) == nil, "\(text)") }
    }
}

@Suite("Handover")
struct HandoverTests {
    @Test("a handed-over value is taken once; after that the handover is empty")
    func takenOnce() {
        let handover = Handover([UInt8](repeating: 1, count: 4))
        #expect(handover.take() == [1, 1, 1, 1])
        #expect(handover.take() == nil)
    }
}
