/// Synthetic place and business names in one writing system, built from syllable tables.
///
/// The tables are small on purpose: names share syllables and words the way real directories
/// do ("... Pharmacy", "... 银行"), which is what gives a compressor something to find.
///
///     var random = SeededGenerator(seed: 1)
///     let name = Script.cyrillic.name(using: &random)   // e.g. "Новобор Аптека"
enum Script: CaseIterable {
  case latin, cyrillic, greek, arabic, hebrew, devanagari, chinese, japanese, korean

  /// Syllables that place names are made of.
  private var syllables: [String] {
    switch self {
    case .latin:
      return [
        "bra", "del", "moor", "vik", "ström", "éla", "ñan", "güt", "ber", "ton", "ham", "wick", "ville", "burg",
        "san", "ta", "ma", "ri", "ro", "sa", "lin", "den", "fjord", "øy", "çe", "mont", "val", "port", "kir", "by",
      ]
    case .cyrillic:
      return [
        "но", "во", "гра", "дск", "ми", "ла", "пе", "тро", "ка", "зань", "ор", "ёл", "ск", "яр", "бор", "ки", "ев",
        "хов",
      ]
    case .greek:
      return [
        "αθ", "ηνα", "θεσ", "σα", "λο", "νί", "κη", "πά", "τρα", "ηρά", "κλει", "ο", "λά", "ρι", "βό", "λος", "χα",
        "νιά",
      ]
    case .arabic:
      return ["دار", "ال", "نور", "سلام", "زهر", "قمر", "بحر", "جبل", "واد", "رمل", "نخل", "شمس", "ورد", "سيف"]
    case .hebrew:
      return ["תל", "אב", "יב", "חי", "פה", "יר", "ושל", "ים", "בא", "ר", "שבע", "נת", "גן", "הר"]
    case .devanagari:
      return ["दि", "ल्ली", "मुं", "बई", "पु", "णे", "ज", "य", "पुर", "ना", "ग", "रा", "म", "कान", "गढ़", "बाद"]
    case .chinese:
      return [
        "北", "南", "东", "西", "山", "海", "江", "河", "华", "新", "长", "安", "平", "天", "明", "金", "龙", "凤", "永", "福",
        "广", "州", "深", "圳", "成", "都", "武", "汉",
      ]
    case .japanese:
      return [
        "東", "京", "大", "阪", "名", "古", "屋", "福", "岡", "横", "浜", "札", "幌", "神", "戸", "川", "田", "本", "山", "崎",
        "さ", "く", "ら",
      ]
    case .korean:
      return ["서", "울", "부", "산", "대", "구", "인", "천", "광", "주", "수", "원", "전", "강", "남", "제", "포", "항"]
    }
  }

  /// Kinds of business a caller ID names.
  private var businesses: [String] {
    switch self {
    case .latin:
      return [
        "Pharmacy", "Dental Clinic", "Taxi", "Bank", "Insurance", "Logistics", "Auto Repair", "Pizzeria", "Hotel",
        "Bäckerei", "Apotheke", "Boulangerie", "Farmacia", "Seguros", "Consulting", "Plumbing", "Veterinary",
        "Library", "City Hall", "School", "Clínica", "Café", "Notaire", "Fysioterapi",
      ]
    case .cyrillic:
      return [
        "Банк", "Аптека", "Такси", "Клиника", "Страхование", "Автосервис", "Гостиница", "Пиццерия", "Школа", "Почта",
      ]
    case .greek: return ["Τράπεζα", "Φαρμακείο", "Ταξί", "Κλινική", "Ασφάλειες", "Ξενοδοχείο", "Σχολείο", "Φούρνος"]
    case .arabic: return ["بنك", "صيدلية", "تاكسي", "عيادة", "تأمين", "فندق", "مدرسة", "مطعم", "شركة"]
    case .hebrew: return ["בנק", "בית מרקחת", "מונית", "מרפאה", "ביטוח", "מלון", "מאפייה"]
    case .devanagari: return ["बैंक", "दवाखाना", "टैक्सी", "अस्पताल", "बीमा", "होटल", "विद्यालय"]
    case .chinese: return ["银行", "药房", "出租车", "医院", "保险", "物流", "酒店", "餐厅", "学校", "快递", "有限公司"]
    case .japanese: return ["銀行", "薬局", "タクシー", "クリニック", "保険", "運輸", "ホテル", "ラーメン", "歯科", "株式会社"]
    case .korean: return ["은행", "약국", "택시", "병원", "보험", "호텔", "식당", "학교", "치과"]
    }
  }

  /// A place name of two to four syllables (two or three for the ideographic scripts), capitalised
  /// where the script has case.
  func place(using random: inout SeededGenerator) -> String {
    let table = syllables
    let length = Int.random(in: isIdeographic ? 2...3 : 2...4, using: &random)
    let word = (0..<length).map { _ in table[Int.random(in: table.indices, using: &random)] }.joined()
    return word.prefix(1).uppercased() + word.dropFirst()
  }

  /// A business name: a place and a kind of business, in the order and spacing the script uses.
  ///
  /// About one Latin name in ten has the form "Bank, Place", so that the listing needs CSV quoting.
  func name(using random: inout SeededGenerator) -> String {
    let place = place(using: &random)
    let table = businesses
    let business = table[Int.random(in: table.indices, using: &random)]
    switch self {
    case .chinese, .japanese: return place + business
    case .arabic, .hebrew: return business + " " + place
    case .latin where Int.random(in: 0..<10, using: &random) == 0: return business + ", " + place
    default: return place + " " + business
    }
  }

  private var isIdeographic: Bool { self == .chinese || self == .japanese || self == .korean }
}

/// Labels of spam-warning services: a category and a region ("Scam Likely · Ohio").
enum SpamLabels {
  static let categories = [
    "Scam Likely", "Telemarketer", "Robocall", "Debt Collector", "Survey", "Political Call", "Charity", "Fraud Risk",
    "Spoofed Number", "Nuisance Call", "Health Insurance Scam", "Tax Scam", "Tech Support Scam", "Auto Warranty",
    "Loan Offer", "Prize Scam", "Energy Sales", "Timeshare", "Solar Sales", "Crypto Scam",
  ]
  static let regions = [
    "Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut", "Delaware", "Florida",
    "Georgia", "Hawaii", "Idaho", "Illinois", "Indiana", "Iowa", "Kansas", "Kentucky", "Louisiana", "Maine",
    "Maryland", "Massachusetts", "Michigan", "Minnesota", "Mississippi", "Missouri", "Montana", "Nebraska", "Nevada",
    "New Hampshire", "New Jersey", "New Mexico", "New York", "North Carolina", "North Dakota", "Ohio", "Oklahoma",
    "Oregon", "Pennsylvania", "Rhode Island", "South Carolina", "South Dakota", "Tennessee", "Texas", "Utah",
    "Vermont", "Virginia", "Washington", "West Virginia", "Wisconsin", "Wyoming", "Ontario", "Québec", "Alberta",
  ]

  /// The first `count` labels (at most categories x regions), in a fixed order.
  static func labels(_ count: Int) -> [String] {
    var labels: [String] = []
    outer: for region in regions {
      for category in categories {
        if labels.count == count { break outer }
        labels.append(category + " · " + region)
      }
    }
    return labels
  }
}
