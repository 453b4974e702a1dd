// The RV service desk's procedure catalog: four systems, each a short isolation procedure with
// branches, safety and warranty constraints, evidence and safety rules. Its one source is the data
// file catalogs/rv-service.json (the format is described in CATALOG.md) with its translations
// (rv-service.<language>.json) and its labelled conversations (rv-service.conversations.json,
// whose tune split gives each system its examples), validated whole here as any catalog a server
// loads is: a broken edit fails at import, not in a conversation.

import conversations from "../../catalogs/rv-service.conversations.json";
import de from "../../catalogs/rv-service.de.json";
import es from "../../catalogs/rv-service.es.json";
import data from "../../catalogs/rv-service.json";
import ru from "../../catalogs/rv-service.ru.json";
import { parseCatalog, type TCatalog } from "./catalog-schema";
import { withExamples } from "./conversations";

// (translations in file-name order, as a catalog file's sibling translations are loaded)
export const RV_SERVICE_CATALOG: TCatalog = parseCatalog(
  withExamples({ ...data, translations: [de, es, ru] }, conversations),
);
