import type { TServerEnv } from "../env";
import { createOfflineModel } from "./offline-model";
import type { TModelProvider } from "./provider";

/** The provider named by SOLSERVER_MODEL. Real providers join here (issue 4). */
export function createModel(name: TServerEnv["SOLSERVER_MODEL"]): TModelProvider {
  switch (name) {
    case "offline":
      return createOfflineModel();
  }
}
