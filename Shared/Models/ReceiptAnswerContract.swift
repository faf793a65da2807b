import Foundation
import KiwiStrictJSON

/// The rules of a receipt scan's answer (`mode=receipt`, docs/architecture.md, "Receipt scans"), from one description
/// as for fridge answers (``ScanResponseContract``). The model writes the receipt flat, `{"isReceipt": …, "storeName":
/// …, "lines": […], "total": …}`, so that each line streams as an element of a top-level list, as a fridge answer's
/// recipes do; `isReceipt` false says the photos show no receipt, whatever else it wrote. Clients receive the receipt
/// inside a scan response's `receipt`, each line with a server-assigned id, and `totalMismatch` when the lines do not add
/// up to the printed total.
public enum ReceiptAnswerContract {
    /// A receipt answer as the model writes it.
    public static let modelAnswer = JSONShape.constrained(
        .object([
            JSONProperty("isReceipt", .boolean),
            JSONProperty("storeName", .nullable(.string(length: 1...100))),
            JSONProperty("date", .nullable(.constrained(.string(length: 10...10), dateRule))),
            JSONProperty("time", .nullable(.constrained(.string(length: 5...5), timeRule))),
            JSONProperty("currency", .oneOf(Currency.codes)),
            JSONProperty("lines", .array(of: line(withIDs: false), count: 0...lineCount.upperBound)),
            JSONProperty("total", .number(-amountLimit...amountLimit)),
        ]),
        receiptHasLines
    )
    /// The JSON Schema for OpenAI Structured Outputs of an answer written in `language`.
    public static func jsonSchema(answeringIn language: AnswerLanguage) -> JSONValue {
        ScanResponseContract.schema(of: modelAnswer, answeringIn: language)
    }
    /// How many lines a receipt has: a big shop's, within one answer's 4,096 output tokens.
    public static let lineCount = 1...80

    /// The receipt as clients receive it.
    static let clientReceipt = JSONShape.object([
        JSONProperty("storeName", .nullable(.string(length: 1...100)), required: false),
        JSONProperty("date", .nullable(.constrained(.string(length: 10...10), dateRule)), required: false),
        JSONProperty("time", .nullable(.constrained(.string(length: 5...5), timeRule)), required: false),
        JSONProperty("currency", .oneOf(Currency.codes)),
        JSONProperty("lines", .array(of: clientLine, count: lineCount)),
        JSONProperty("total", .number(-amountLimit...amountLimit)),
        JSONProperty(
            "totalMismatch",
            .object([
                JSONProperty("linesTotal", .number(-amountLimit * Double(lineCount.upperBound)...amountLimit * Double(lineCount.upperBound))),
                JSONProperty("printedTotal", .number(-amountLimit...amountLimit)),
            ]),
            required: false
        ),
    ])
    private static let clientLine = line(withIDs: true)
    private static let amountLimit = 1_000_000.0

    /// Checks a model's receipt answer against every rule and returns it as a receipt scan's response (no `receipt`
    /// when the model says the photos show none), with line ids derived from `idSeed` (the scan's id) as for fridge
    /// answers. Throws every violation found, each with its JSON path.
    public static func validateModelAnswer(_ data: Data, idSeed: UUID) throws(ScanResponseValidationError) -> ScanResponse {
        let checked = try ScanResponseContract.check(try ScanResponseContract.parse(data), against: modelAnswer)
        guard case .object(var receipt) = checked, receipt["isReceipt"] == .bool(true) else {
            return ScanResponse(ingredients: [], recipes: [], mode: .receipt)
        }
        receipt["isReceipt"] = nil
        let value = clientReceipt.derivingIDs(in: .object(receipt), at: "$.receipt", seed: idSeed)
        var answer = try ScanResponseContract.decode(value, as: ReceiptAnswer.self)
        answer.totalMismatch = mismatch(of: answer)
        return ScanResponse(ingredients: [], recipes: [], mode: .receipt, receipt: answer)
    }

    /// Checks the line at `index` of an answer's `lines` on its own, as it streams, by the same rules as in the whole
    /// answer, and returns it with the id ``validateModelAnswer(_:idSeed:)`` gives it.
    public static func validateModelLine(_ value: JSONValue, at index: Int, idSeed: UUID) throws(ScanResponseValidationError) -> ReceiptLine {
        let path = "$.lines[\(index)]"
        guard index < lineCount.upperBound else {
            let message = "must have at most \(lineCount.upperBound) items, found one at index \(index)"
            throw ScanResponseValidationError(violations: [JSONViolation(path: "$.lines", message: message)])
        }
        let checked = try ScanResponseContract.check(value, at: path, against: line(withIDs: false))
        return try ScanResponseContract.decode(
            clientLine.derivingIDs(in: checked, at: "$.receipt.lines[\(index)]", seed: idSeed),
            as: ReceiptLine.self
        )
    }

    /// The lines' sum and the printed total when they differ by more than a cent of rounding; nil when they agree.
    static func mismatch(of receipt: ReceiptAnswer) -> ReceiptTotalMismatch? {
        let cents = receipt.lines.reduce(0) { $0 + ($1.total * 100).rounded() }
        let printed = (receipt.total * 100).rounded()
        guard abs(cents - printed) > 1 else { return nil }
        return ReceiptTotalMismatch(linesTotal: cents / 100, printedTotal: receipt.total)
    }

    private static func line(withIDs: Bool) -> JSONShape {
        .constrained(
            .entity(
                [
                    JSONProperty("text", .string(length: 1...100)),
                    JSONProperty("kind", .oneOf(ReceiptLineKind.allCases.map(\.rawValue))),
                    JSONProperty("name", .nullable(.string(length: 1...100)), required: !withIDs),
                    ScanResponseContract.addedLater(ScanResponseContract.canonicalName, .nullable(.string(length: 1...100)), withIDs: withIDs),
                    JSONProperty("quantity", .nullable(.number(0...10_000)), required: !withIDs),
                    JSONProperty("unit", .nullable(.oneOf(QuantityUnit.pantryUnits.map(\.rawValue))), required: !withIDs),
                    JSONProperty("unitPrice", .nullable(.number(0...100_000)), required: !withIDs),
                    JSONProperty("total", .number(-100_000...100_000)),
                ],
                withID: withIDs
            ),
            lineRule
        )
    }

    /// A food line names the food, how much and in which unit (a positive amount), and no other line does; a discount
    /// takes off, and food and other goods add to the total. A deposit may do either (a bottle return refunds one).
    static let lineRule = JSONConstraint { value, path in
        guard case .object(let line) = value, case .string(let kind)? = line["kind"] else { return [] }
        var violations: [JSONViolation] = []
        func number(_ member: String) -> Double? { if case .number(let number)? = line[member] { number.value } else { nil } }
        let total = number("total")
        switch ReceiptLineKind(rawValue: kind) {
        case .food:
            for member in ["name", "unit"] where (line[member] ?? .null) == .null {
                violations.append(JSONViolation(path: "\(path).\(member)", message: "must not be null for a food line"))
            }
            // Absent from an English answer and older ones; written, it names the food.
            if case .null? = line[ScanResponseContract.canonicalName] {
                violations.append(JSONViolation(path: "\(path).\(ScanResponseContract.canonicalName)", message: "must not be null for a food line"))
            }
            if (number("quantity") ?? 0) <= 0 {
                violations.append(JSONViolation(path: "\(path).quantity", message: "must be a positive number for a food line"))
            }
            if let total, total < 0 { violations.append(JSONViolation(path: "\(path).total", message: "must not be negative for a food line")) }
        case .other:
            if let total, total < 0 { violations.append(JSONViolation(path: "\(path).total", message: "must not be negative for an other line")) }
        case .discount:
            if let total, total >= 0 { violations.append(JSONViolation(path: "\(path).total", message: "must be negative for a discount line")) }
        case .deposit, nil:
            break
        }
        if kind != ReceiptLineKind.food.rawValue {
            for member in ["name", ScanResponseContract.canonicalName, "quantity", "unit"] where (line[member] ?? .null) != .null {
                violations.append(JSONViolation(path: "\(path).\(member)", message: "must be null for a line that is not food"))
            }
        }
        return violations
    }

    /// A receipt has at least one line; an answer that says the photos show no receipt may have none.
    static let receiptHasLines = JSONConstraint { value, path in
        guard case .object(let answer) = value, answer["isReceipt"] == .bool(true), case .array(let lines)? = answer["lines"], lines.isEmpty
        else { return [] }
        return [JSONViolation(path: "\(path).lines", message: "must have at least 1 item for a receipt")]
    }

    /// A date as `yyyy-MM-dd`, a day that exists.
    static let dateRule = JSONConstraint { value, path in
        guard case .string(let text) = value else { return [] }
        return CalendarDay(text) == nil ? [JSONViolation(path: path, message: "must be a date as yyyy-MM-dd")] : []
    }

    /// A time as `HH:mm`, on a 24-hour clock.
    static let timeRule = JSONConstraint { value, path in
        guard case .string(let text) = value else { return [] }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), hour < 24, minute < 60
        else { return [JSONViolation(path: path, message: "must be a time as HH:mm")] }
        return []
    }
}
