import Foundation
import KiwiModels
import KiwiStrictJSON
import Testing

/// The rules of a receipt scan's answer (``ReceiptAnswerContract``): every line by its kind, and the total checked.
@Suite("Receipt contract")
struct ReceiptContractTests {
    static let bananas =
        #"{"text": "BANANAS LOOSE 0.734kg @ 2.99/kg", "kind": "food", "name": "bananas", "quantity": 0.734, "unit": "kg", "unitPrice": 2.99, "total": 2.19}"#
    static let yoghurt =
        #"{"text": "GREEK YOGHURT 500G", "kind": "food", "name": "greek yoghurt", "quantity": 500, "unit": "g", "unitPrice": 0.00298, "total": 1.49}"#
    static let multibuy =
        #"{"text": "MULTIBUY 2 FOR 2.50", "kind": "discount", "name": null, "quantity": null, "unit": null, "unitPrice": null, "total": -0.48}"#
    static let deposit =
        #"{"text": "DEPOSIT 6 x 0.25", "kind": "deposit", "name": null, "quantity": null, "unit": null, "unitPrice": null, "total": 1.50}"#

    func answer(
        _ lines: [String],
        total: Double,
        isReceipt: Bool = true,
        date: String = "2026-11-27",
        time: String = "18:42",
        currency: String = "EUR"
    )
        -> Data
    {
        Data(
            #"""
            {"isReceipt": \#(isReceipt), "storeName": "FreshMart", "date": "\#(date)", "time": "\#(time)", "currency": "\#(currency)",
             "lines": [\#(lines.joined(separator: ","))], "total": \#(total)}
            """#.utf8
        )
    }

    func validated(_ data: Data, seed: UUID = UUID()) throws(ScanResponseValidationError) -> ScanResponse {
        try ReceiptAnswerContract.validateModelAnswer(data, idSeed: seed)
    }

    @Test("a weight-priced line, a multi-buy discount and a deposit add up to the printed total: no mismatch")
    func receiptThatAddsUp() throws {
        let response = try validated(answer([Self.bananas, Self.yoghurt, Self.yoghurt, Self.multibuy, Self.deposit], total: 6.19))
        let receipt = try #require(response.receipt)
        #expect(response.mode == .receipt && response.ingredients.isEmpty && response.recipes.isEmpty)
        #expect(receipt.lines.map(\.kind) == [.food, .food, .food, .discount, .deposit])
        #expect(receipt.lines[0].quantity == 0.734 && receipt.lines[0].unit == .kg && receipt.lines[0].unitPrice == 2.99)
        #expect(receipt.lines[3].total == -0.48 && receipt.lines[3].name == nil)
        #expect(receipt.totalMismatch == nil)
        #expect(receipt.storeName == "FreshMart" && receipt.date == "2026-11-27" && receipt.time == "18:42" && receipt.currency == "EUR")
    }

    @Test("lines that do not add up to the printed total are kept, and the answer says so with both numbers")
    func mismatchIsReported() throws {
        let receipt = try #require(try validated(answer([Self.bananas, Self.yoghurt], total: 4.68)).receipt)
        #expect(receipt.totalMismatch == ReceiptTotalMismatch(linesTotal: 3.68, printedTotal: 4.68))
    }

    @Test("a cent of rounding between the lines and the total is no mismatch")
    func centOfRoundingIsNoMismatch() throws {
        #expect(try #require(try validated(answer([Self.bananas, Self.yoghurt], total: 3.69)).receipt).totalMismatch == nil)
    }

    @Test("a food line needs a name, a unit and a positive quantity, and no other line has them; a discount takes off, food does not")
    func linesAreHeldToTheirKind() {
        let noQuantity = #"{"text": "EGGS", "kind": "food", "name": null, "quantity": 0, "unit": null, "unitPrice": null, "total": 2.00}"#
        let addingDiscount =
            #"{"text": "SAVING", "kind": "discount", "name": null, "quantity": null, "unit": null, "unitPrice": null, "total": 0.50}"#
        let negativeFood = #"{"text": "MILK", "kind": "food", "name": "milk", "quantity": 1, "unit": "l", "unitPrice": 1.19, "total": -1.19}"#
        let weighedBag = #"{"text": "BAG", "kind": "other", "name": null, "quantity": 0, "unit": null, "unitPrice": null, "total": 0.20}"#
        do {
            _ = try validated(answer([noQuantity, addingDiscount, negativeFood, weighedBag], total: 1.51))
            Issue.record("broken lines passed")
        } catch {
            #expect(
                Set(error.violations.map(\.path))
                    == ["$.lines[0].name", "$.lines[0].unit", "$.lines[0].quantity", "$.lines[1].total", "$.lines[2].total", "$.lines[3].quantity"]
            )
        }
    }

    @Test("a recipe-only unit, an unknown currency, an impossible date and time are refused")
    func unitsCurrencyDateAndTimeAreChecked() {
        let ounces = #"{"text": "CHEESE", "kind": "food", "name": "cheese", "quantity": 8, "unit": "oz", "unitPrice": 0.5, "total": 4.00}"#
        do {
            _ = try validated(answer([ounces], total: 4, date: "2026-02-30", time: "24:10", currency: "XYZ"))
            Issue.record("a broken receipt passed")
        } catch {
            #expect(Set(error.violations.map(\.path)) == ["$.lines[0].unit", "$.currency", "$.date", "$.time"])
        }
    }

    @Test("photos the model says show no receipt are an answer without a receipt; a receipt without lines is refused")
    func notAReceipt() throws {
        #expect(try validated(answer([], total: 0, isReceipt: false)).receipt == nil)
        #expect(throws: ScanResponseValidationError.self) { try validated(answer([], total: 0)) }
    }

    @Test("a line checked on its own as it streams has the id it has in the whole answer")
    func streamedLineHasItsID() throws {
        let seed = UUID()
        let whole = try #require(try validated(answer([Self.bananas, Self.yoghurt], total: 3.68), seed: seed).receipt)
        let line = try ReceiptAnswerContract.validateModelLine(try StrictJSONParser().parse(Data(Self.yoghurt.utf8)), at: 1, idSeed: seed)
        #expect(line == whole.lines[1])
        #expect(whole.lines[0].id != whole.lines[1].id)
    }

    @Test("a receipt scan's response meets the contract clients are given, and reads back the same")
    func responseMeetsClientContract() throws {
        let response = try validated(answer([Self.bananas, Self.multibuy], total: 5))
        let encoded = try KiwiJSON.encoder().encode(response)
        #expect(try ScanResponseContract.validate(encoded) == response)
        #expect(try KiwiJSON.decoder().decode(ScanResponse.self, from: encoded) == response)
    }

    @Test("the schema is strict: every member required, the currencies and the pantry's units enumerated")
    func schemaIsStrict() {
        let schema = ReceiptAnswerContract.jsonSchema(answeringIn: .en).serialized()
        #expect(schema.contains(#""required":["isReceipt","storeName","date","time","currency","lines","total"]"#), "\(schema)")
        #expect(schema.contains(#""EUR","FJD""#))
        #expect(!schema.contains(#""oz""#) && schema.contains(#""bunch""#))
    }
}

extension ReceiptContractTests {
    @Test("a food line read for a German cook keeps its English name, which a line that is not food may not have")
    func canonicalNameIsFoodsAlone() throws {
        let bananen =
            #"{"text": "BANANEN LOSE 0,734kg", "kind": "food", "name": "Bananen", "canonicalName": "bananas", "quantity": 0.734, "unit": "kg", "unitPrice": 2.99, "total": 2.19}"#
        let line = try #require(try validated(answer([bananen], total: 2.19)).receipt?.lines.first)
        #expect(line.name == "Bananen" && line.canonicalName == "bananas")
        let pfand =
            #"{"text": "PFAND", "kind": "deposit", "name": null, "canonicalName": "deposit", "quantity": null, "unit": null, "unitPrice": null, "total": 0.25}"#
        #expect(throws: ScanResponseValidationError.self) { try validated(answer([pfand], total: 0.25)) }
        let unnamed = bananen.replacingOccurrences(of: #""canonicalName": "bananas""#, with: #""canonicalName": null"#)
        #expect(throws: ScanResponseValidationError.self) { try validated(answer([unnamed], total: 2.19)) }
    }
}
