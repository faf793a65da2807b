import Foundation
import KiwiMessaging
import KiwiModels
import KiwiScanMessages
import KiwiScans
import Testing

@Suite("Scan job messages")
struct ScanJobTests {
    let deadline = Date(timeIntervalSince1970: 1_800_000_000.250)
    let scanID = UUID()
    let key = PhotoKey()
    var job: ScanJob {
        ScanJob(scanID: scanID, photos: [[0xFF, 0xD8, 0xFF, 0xD9]], deadline: deadline, requestID: "req-1", userKey: ScanJob.userKey(forUserID: "u"))
    }

    @Test("a job survives the trip through a message: sealed JPEG body, scan id, deadline, request id and user key")
    func roundTrip() throws {
        let message = try job.message(sealingWith: key, now: deadline.addingTimeInterval(-90))
        #expect(try key.open(message.body, for: scanID) == job.photos[0])
        #expect(message.properties.contentType == "image/jpeg")
        #expect(try ScanJob(message: message, key: key) == job)
    }

    @Test("a job's body holds no run of its photo's bytes in the clear")
    func photoNeverInTheClear() throws {
        var job = job
        job.photos = [[0xFF, 0xD8] + (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7) } + [0xFF, 0xD9]]
        let body = try job.message(sealingWith: key).body
        for start in stride(from: 0, to: job.photos[0].count - 8, by: 8) {
            #expect(body.firstRange(of: job.photos[0][start..<start + 8]) == nil)
        }
    }

    @Test(
        "a job names the gateway that started it; a name no routing key can hold is read as none",
        arguments: [
            ("gateway-1", "gateway-1"), ("a.b", nil), ("a*", nil), ("#", nil), ("", nil), (String(repeating: "g", count: 65), nil),
        ] as [(String, String?)]
    )
    func gatewayTravels(_ sent: String, _ read: String?) throws {
        var job = job
        job.gateway = sent
        #expect(try ScanJob(message: job.message(sealingWith: key), key: key).gateway == read)
    }

    @Test("a job says when its answer is shown to nobody before its result; a job without the header is shown, as before")
    func partialsTravel() throws {
        var job = job
        #expect(try ScanJob(message: job.message(sealingWith: key), key: key).showsPartials)
        job.showsPartials = false
        let message = try job.message(sealingWith: key)
        #expect(message.properties.headers[ScanJob.Header.partials] == "none")
        #expect(try ScanJob(message: message, key: key).showsPartials == false)
    }

    @Test("a job does not open with another key, nor as another scan's")
    func sealedToItsScan() throws {
        let message = try job.message(sealingWith: key)
        #expect(throws: ScanJobDecodingError.self) { try ScanJob(message: message, key: PhotoKey()) }
        var another = message
        another.properties.headers[ScanJob.Header.scanID] = UUID().uuidString.lowercased()
        #expect(throws: ScanJobDecodingError.self) { try ScanJob(message: another, key: key) }
    }

    @Test("a job of a gateway from before sealing, its photo and profile in the clear, is read with no key")
    func photoInTheClear() throws {
        var job = job
        job.profile = KitchenProfile(allergies: [.peanuts])
        var message = try job.message(sealingWith: key)
        message.body = job.photos[0]
        message.properties.headers[ScanJob.Header.format] = nil
        message.properties.headers[ScanJob.Header.profile] = #"{"allergies":["peanuts"]}"#
        #expect(try ScanJob(message: message, key: nil) == job)
    }

    @Test("a job's profile travels sealed under its scan's key: no header holds an allergy or a diet in the clear")
    func profileSealed() throws {
        var job = job
        job.profile = KitchenProfile(diets: [.vegan], allergies: [.sesame], dislikes: ["olives"])
        let message = try job.message(sealingWith: key)
        #expect(message.properties.headers[ScanJob.Header.format] == ScanJob.currentFormat)
        let headers = message.properties.headers.values.joined(separator: " ")
        for word in ["vegan", "sesame", "olives", "allergies"] { #expect(!headers.contains(word)) }
        let sealed = try #require(message.properties.headers[ScanJob.Header.profile].flatMap { Data(base64Encoded: $0) })
        let json = try key.open(Array(sealed), for: scanID, part: .profile)
        #expect(try JSONDecoder().decode(KitchenProfile.self, from: Data(json)) == job.profile)
        #expect(try ScanJob(message: message, key: key).profile == job.profile)
    }

    @Test("a household member's job carries its table sealed under the scan's key, as its own part; a job without one has no header")
    func tableSealed() throws {
        var job = job
        let seat = TableSeat(memberId: UUID(), allergies: [.peanuts], diets: [.vegetarian])
        job.table = [seat]
        let message = try job.message(sealingWith: key)
        let headers = message.properties.headers.values.joined(separator: " ")
        for word in ["peanuts", "vegetarian", seat.memberId.uuidString.lowercased()] { #expect(!headers.contains(word)) }
        let sealed = try #require(message.properties.headers[ScanJob.Header.table].flatMap { Data(base64Encoded: $0) })
        #expect(throws: PhotoKey.Unopenable.self) { try key.open(Array(sealed), for: scanID, part: .profile) }
        #expect(try ScanJob(message: message, key: key).table == [seat])
        #expect(try self.job.message(sealingWith: key).properties.headers[ScanJob.Header.table] == nil)
    }

    @Test("a job for a person without a profile carries an empty one, sealed, and is read as none")
    func noProfileSealedEmpty() throws {
        let message = try job.message(sealingWith: key)
        #expect(message.properties.headers[ScanJob.Header.profile] != nil)
        #expect(try ScanJob(message: message, key: key).profile == nil)
    }

    @Test(
        "a job whose profile is missing, not base64, or sealed under another key, for another scan or as photos is read, and does not open",
        arguments: ["missing", "not base64", "another key", "another scan", "as photos"]
    )
    func unreadableProfileDoesNotOpen(_ planted: String) throws {
        var job = job
        job.profile = KitchenProfile(allergies: [.milk])
        var message = try job.message(sealingWith: key)
        let json = Array(try JSONEncoder().encode(job.profile))
        let profile: String? =
            switch planted {
            case "missing": nil
            case "not base64": "{{{"
            case "another key": Data(try PhotoKey().seal(json, for: scanID, part: .profile)).base64EncodedString()
            case "another scan": Data(try key.seal(json, for: UUID(), part: .profile)).base64EncodedString()
            default: Data(try key.seal(json, for: scanID, part: .photos)).base64EncodedString()
            }
        message.properties.headers[ScanJob.Header.profile] = profile
        let sealed = try SealedScanJob(message: message)
        #expect(throws: ScanJobDecodingError.self) { try sealed.opened(with: key) }
    }

    @Test("a job whose profile is sealed does not open without a key, photos or not")
    func sealedProfileNeedsItsKey() throws {
        var refinement = job
        (refinement.photos, refinement.ingredients) = ([], ["leeks"])
        for job in [job, refinement] {
            let message = try job.message(sealingWith: key)
            #expect(throws: ScanJobDecodingError.self) { try ScanJob(message: message, key: nil) }
        }
    }

    @Test("a job of a format this worker does not know is not a job")
    func unknownFormatIsRefused() throws {
        var message = try job.message(sealingWith: key)
        message.properties.headers[ScanJob.Header.format] = "3"
        #expect(throws: ScanJobDecodingError.self) { try SealedScanJob(message: message) }
    }

    @Test("a worker of the release before sealed profiles refuses every job of this one, profile or none, to the dead-letter queue")
    func previousReleaseRefusesSealedJobs() throws {
        var withProfile = job
        withProfile.profile = KitchenProfile(allergies: [.peanuts])
        for job in [job, withProfile] {
            let message = try job.message(sealingWith: key)
            #expect(throws: ScanJobDecodingError.self) { try PreviousReleaseJobReader.read(message) }
        }
    }

    @Test("several photos travel one after the other in the body, with their sizes, the mode and the profile in headers")
    func severalPhotosRoundTrip() throws {
        var job = job
        job.photos = [[0xFF, 0xD8, 0xFF, 0x01, 0xD9], [0xFF, 0xD8, 0xFF, 0xD9], [0xFF, 0xD8, 0xFF, 0x02, 0x03, 0xD9]]
        job.mode = .dish
        job.profile = KitchenProfile(diets: [.vegan], allergies: [.sesame])
        let message = try job.message(sealingWith: key, now: deadline.addingTimeInterval(-90))
        #expect(message.body.count == 15 + PhotoKey.overhead)
        #expect(message.properties.headers[ScanJob.Header.photoSizes] == "5,4,6")
        #expect(message.properties.headers[ScanJob.Header.mode] == "dish")
        #expect(try ScanJob(message: message, key: key) == job)
    }

    @Test("photo sizes that do not divide the body, and an unknown mode, are not a job", arguments: ["5,4", "5,4,7", "5,x,6", "0,9,6"])
    func badPhotoSizesAreRefused(_ sizes: String) throws {
        var job = job
        job.photos = [[0xFF, 0xD8, 0xFF, 0x01, 0xD9], [0xFF, 0xD8, 0xFF, 0xD9], [0xFF, 0xD8, 0xFF, 0x02, 0x03, 0xD9]]
        var message = try job.message(sealingWith: key)
        message.properties.headers[ScanJob.Header.photoSizes] = sizes
        #expect(throws: ScanJobDecodingError.self) { try ScanJob(message: message, key: key) }
        var unknownMode = try self.job.message(sealingWith: key)
        unknownMode.properties.headers[ScanJob.Header.mode] = "pantry"
        #expect(throws: ScanJobDecodingError.self) { try ScanJob(message: unknownMode, key: key) }
    }

    @Test("a refinement's job has an empty body and its names in a header, and survives the trip; a photo job has no such header")
    func refinementRoundTrip() throws {
        var refinement = job
        (refinement.photos, refinement.ingredients) = ([], ["Greek yoghurt", "leeks"])
        let message = try refinement.message(sealingWith: key, now: deadline.addingTimeInterval(-90))
        #expect(message.body.isEmpty)
        #expect(message.properties.headers[ScanJob.Header.ingredients] == #"["Greek yoghurt","leeks"]"#)
        #expect(try ScanJob(message: message, key: key) == refinement)
        #expect(try job.message(sealingWith: key).properties.headers[ScanJob.Header.ingredients] == nil)
    }

    @Test("a pantry scan's job carries its items beside their names, which a worker of the release before reads, and survives the trip")
    func pantryRoundTrip() throws {
        let spinach = OfferedPantryItem(id: UUID(), name: "Spinach", useSoonBy: CalendarDay("2026-12-01"))
        let pantryScan = ScanJob(scanID: scanID, photos: [], deadline: deadline, requestID: nil, userKey: "k", pantry: [spinach])
        let message = try pantryScan.message(sealingWith: key, now: deadline.addingTimeInterval(-90))
        #expect(message.body.isEmpty)
        #expect(message.properties.headers[ScanJob.Header.ingredients] == #"["Spinach"]"#)
        #expect(try ScanJob(message: message, key: key) == pantryScan)
    }

    @Test(
        "a plan's job carries the plan and its pantry's items, none when it is empty, and no names, so that a worker of the release before fails it"
    )
    func planRoundTrip() throws {
        let plan = PlanRequest(from: CalendarDay("2026-11-30")!, days: 7, meals: [.dinner, .lunch], servings: 2)
        for pantry in [[OfferedPantryItem(id: UUID(), name: "Spinach", useSoonBy: nil)], []] {
            let planJob = ScanJob(scanID: scanID, photos: [], deadline: deadline, requestID: nil, userKey: "k", pantry: pantry, plan: plan)
            let message = try planJob.message(sealingWith: key, now: deadline.addingTimeInterval(-90))
            #expect(message.body.isEmpty && planJob.ingredients == nil)
            #expect(message.properties.headers[ScanJob.Header.ingredients] == nil)
            #expect(try ScanJob(message: message, key: key) == planJob)
        }
    }

    @Test(
        "a plan of more than 14 days, of no meal or a meal twice, or without its pantry's items, is not a job",
        arguments: [
            #"{"from": "2026-11-30", "days": 15, "meals": ["dinner"], "servings": 2}"#,
            #"{"from": "2026-11-30", "days": 2, "meals": [], "servings": 2}"#,
            #"{"from": "2026-11-30", "days": 2, "meals": ["lunch", "lunch"], "servings": 2}"#, nil,
        ]
    )
    func badPlanIsRefused(_ plan: String?) throws {
        let planJob = ScanJob(
            scanID: scanID,
            photos: [],
            deadline: deadline,
            requestID: nil,
            userKey: "k",
            pantry: [],
            plan: PlanRequest(from: CalendarDay("2026-11-30")!, days: 2, meals: [.dinner], servings: 2)
        )
        var message = try planJob.message(sealingWith: key)
        if let plan { message.properties.headers[ScanJob.Header.plan] = plan } else { message.properties.headers[ScanJob.Header.pantry] = nil }
        #expect(throws: ScanJobDecodingError.self) { try ScanJob(message: message, key: key) }
    }

    @Test("a planned meal's job carries the meal with its items and no names, plan or pantry, so that a worker of the release before fails it")
    func mealRoundTrip() throws {
        let outline = MealOutline(name: "Spinach risotto", mainIngredient: "rice", summary: "Creamy.", cookTimeMinutes: 25, usesUp: [])
        let items = [OfferedPantryItem(id: UUID(), name: "Spinach", useSoonBy: nil)]
        let mealJob = ScanJob(
            scanID: scanID,
            photos: [],
            deadline: deadline,
            requestID: nil,
            userKey: "k",
            meal: MealRecipeRequest(meal: .lunch, outline: outline, servings: 2, items: items)
        )
        let message = try mealJob.message(sealingWith: key, now: deadline.addingTimeInterval(-90))
        #expect(message.body.isEmpty)
        for header in [ScanJob.Header.ingredients, ScanJob.Header.plan, ScanJob.Header.pantry] { #expect(message.properties.headers[header] == nil) }
        #expect(try ScanJob(message: message, key: key) == mealJob)
        var withPlan = message
        withPlan.properties.headers[ScanJob.Header.plan] = #"{"from": "2026-11-30", "days": 1, "meals": ["dinner"], "servings": 2}"#
        #expect(throws: ScanJobDecodingError.self) { try ScanJob(message: withPlan, key: key) }
        var broken = message
        broken.properties.headers[ScanJob.Header.meal] = #"{"meal": "supper"}"#
        #expect(throws: ScanJobDecodingError.self) { try ScanJob(message: broken, key: key) }
    }

    @Test("a meal's replacement's job carries its one slot and the plan's other meals, and no plan; a replacement of two slots is not a job")
    func replacementRoundTrip() throws {
        let outline = MealOutline(name: "Risotto", mainIngredient: "rice", summary: "Creamy.", cookTimeMinutes: 25, usesUp: [])
        let other = PlannedMeal(id: UUID(), date: CalendarDay("2026-11-30")!, meal: .dinner, outline: outline)
        let replacement = MealReplacement(
            request: PlanRequest(from: CalendarDay("2026-12-01")!, days: 1, meals: [.dinner], servings: 2),
            replaced: "Fried rice",
            others: [other],
            items: []
        )
        let job = ScanJob(scanID: scanID, photos: [], deadline: deadline, requestID: nil, userKey: "k", replacement: replacement)
        let message = try job.message(sealingWith: key, now: deadline.addingTimeInterval(-90))
        #expect(message.body.isEmpty && message.properties.headers[ScanJob.Header.plan] == nil)
        #expect(try ScanJob(message: message, key: key) == job)
        var twoSlots = replacement
        twoSlots.request.days = 2
        var broken = message
        broken.properties.headers[ScanJob.Header.replacement] = String(decoding: try JSONEncoder().encode(twoSlots), as: UTF8.self)
        #expect(throws: ScanJobDecodingError.self) { try ScanJob(message: broken, key: key) }
    }

    @Test("pantry items that do not match the job's names are not a job")
    func mismatchedPantryIsRefused() throws {
        let spinach = OfferedPantryItem(id: UUID(), name: "Spinach", useSoonBy: nil)
        let pantryScan = ScanJob(scanID: scanID, photos: [], deadline: deadline, requestID: nil, userKey: "k", pantry: [spinach])
        var message = try pantryScan.message(sealingWith: key)
        message.properties.headers[ScanJob.Header.ingredients] = #"["Rice"]"#
        #expect(throws: ScanJobDecodingError.self) { try ScanJob(message: message, key: key) }
    }

    @Test("names that are not a JSON array of strings, or names with photos, are not a job", arguments: ["leeks", "[]", "[1]", #"["leeks"]"#])
    func badIngredientsAreRefused(_ names: String) throws {
        var message = try job.message(sealingWith: key)
        message.properties.headers[ScanJob.Header.ingredients] = names
        #expect(throws: ScanJobDecodingError.self) { try ScanJob(message: message, key: key) }
    }

    @Test("a job message is transient and expires at the deadline")
    func transientAndExpiring() throws {
        let message = try job.message(sealingWith: key, now: deadline.addingTimeInterval(-30))
        #expect(!message.properties.persistent)
        #expect(message.properties.expiration == .milliseconds(30_000))
    }

    @Test("the user key is a stable 32-digit pseudonym that does not contain the user id")
    func userKeyIsPseudonymous() {
        let id = "0b7c1d9e-5f7a-4c3e-9a51-2f0d8c6b4e11"
        let key = ScanJob.userKey(forUserID: id)
        #expect(key.count == 32 && key.allSatisfy(\.isHexDigit))
        #expect(key == ScanJob.userKey(forUserID: id))
        #expect(key != ScanJob.userKey(forUserID: "another"))
        #expect(!key.contains(String(id.prefix(8))))
    }

    @Test(
        "a message missing what a worker needs is not a job",
        arguments: [ScanJob.Header.scanID, ScanJob.Header.deadline, ScanJob.Header.userKey]
    )
    func incompleteMessageIsRefused(_ missing: String) throws {
        var message = try job.message(sealingWith: key)
        message.properties.headers[missing] = nil
        #expect(throws: ScanJobDecodingError.self) { try SealedScanJob(message: message) }
    }

    @Test("a scan event is {\"scanId\", \"state\"} and survives the trip through a message")
    func scanEventShape() throws {
        let event = ScanEvent(scanID: scanID, state: .running)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(event.message.body)) as? [String: String])
        #expect(json == ["scanId": scanID.uuidString.lowercased(), "state": "running"])
        #expect(ScanEvent(message: event.message) == event)
    }

    @Test("a message that is not a scan event is no event")
    func foreignMessageIsNoEvent() {
        for body in [#"{}"#, #"{"scanId":"not-a-uuid","state":"running"}"#, #"{"scanId":"\#(scanID)","state":"paused"}"#] {
            #expect(ScanEvent(message: AMQPMessage(body: Array(body.utf8))) == nil)
        }
    }
}
