// The RV service desk's procedure catalog: four systems, each a short isolation procedure with
// branches, safety and warranty constraints. The same data ships as catalogs/rv-service.json
// (a test keeps the two equal); the format is described in CATALOG.md.

import type { TCatalog } from "./catalog-schema";
import { FURNACE } from "./rv-furnace";
import { ROOF_AC } from "./rv-roof-ac";
import { SLIDE_OUT } from "./rv-slide-out";
import { WATER_PUMP } from "./rv-water-pump";

export const RV_SERVICE_CATALOG: TCatalog = {
  id: "rv_service",
  title: "RV service desk: guided diagnostics",
  systems: [WATER_PUMP, ROOF_AC, FURNACE, SLIDE_OUT],
};
