/**
 * Words that frame a search rather than name its subject ("somewhere to book a
 * dog groomer", "name for a solar panel installer", "online shop selling running
 * shoes"). Kept as concepts, since some are also subjects (an app studio, a book
 * shop), but weighed low when the query holds other words, and not required.
 */
export const FRAMING_WORDS = new Set([
  "somewhere", "someplace", "anywhere", "place", "places", "need", "needs", "needed", "looking", "look", "want", "wants", "wanted",
  "find", "finding", "get", "getting", "buy", "buying", "sell", "selling", "sells", "order", "ordering", "book", "booking",
  "online", "app", "apps", "web", "site", "sites", "website", "websites", "domain", "domains", "name", "names", "brand", "brands",
  "service", "services", "business", "businesses", "company", "companies", "startup", "store", "stores", "shop", "shops", "studio",
  "agency", "firm", "office", "center", "centre", "presence", "something", "someone", "good", "best", "great", "nice", "top",
  "new", "idea", "ideas", "help", "near", "nearby", "local", "people", "start", "starting", "open", "opening", "launch", "page",
  "blog", "platform", "where", "track", "use", "using", "make", "making", "offer", "offering", "provide", "providing",
  "about", "there", "what", "how", "who", "which", "my", "our", "your", "me", "i", "we", "us", "they", "them", "their", "theirs", "his", "her", "hers", "its", "some", "any", "really", "just",
  "from", "into", "at", "by", "that", "this", "these", "those", "is", "are", "be", "can", "will", "would", "should", "could", "do",
  // A request put to a search box or an agent ("can you suggest a domain for ...", "searching for domains about ...").
  "you", "please", "suggest", "suggests", "suggestion", "suggestions", "recommend", "recommendation", "recommendations", "search",
  "searching", "available", "naming",
  // How the name should sound rather than what it is about ("a catchy name for a fitness app", "premium domain for a law firm").
  "catchy", "brandable", "memorable", "premium", "punchy", "snappy", "sounding", "sounds", "short", "shorter", "word", "letter",
  "letters", "unique", "creative", "professional", "trustworthy", "trusted", "playful", "quirky", "sleek", "classy", "modern",
  "minimal", "minimalist", "simple", "cool", "fun", "friendly", "clever", "strong", "elegant", "upmarket",
]);
