import { createCallerFactory, router } from "./init";
import { auditRouter, meRouter, tokensRouter, usersRouter } from "./routers/admin";
import { cfbsRouter } from "./routers/cfbs";
import { chatRouter } from "./routers/chat";
import { feedbackRouter, triggersRouter } from "./routers/feedback";
import { gateRouter } from "./routers/gate";
import { jobsRouter } from "./routers/jobs";
import { mementosRouter } from "./routers/mementos";
import { proceduresRouter } from "./routers/procedures";
import { promotionRouter } from "./routers/promotion";
import { proposalsRouter } from "./routers/proposals";
import { resolveRouter } from "./routers/resolve";
import { routingRouter } from "./routers/routing";
import { systemRouter } from "./routers/system";
import { threadsRouter } from "./routers/threads";
import { workflowsRouter } from "./routers/workflows";

export const appRouter = router({
  chat: chatRouter,
  proposals: proposalsRouter,
  promotion: promotionRouter,
  cfbs: cfbsRouter,
  threads: threadsRouter,
  mementos: mementosRouter,
  procedures: proceduresRouter,
  me: meRouter,
  tokens: tokensRouter,
  users: usersRouter,
  audit: auditRouter,
  gate: gateRouter,
  feedback: feedbackRouter,
  triggers: triggersRouter,
  workflows: workflowsRouter,
  jobs: jobsRouter,
  system: systemRouter,
  resolve: resolveRouter,
  routing: routingRouter,
});

export type AppRouter = typeof appRouter;

/** Server-side caller (tests, server components): `createCaller(createInnerContext(...))`. */
export const createCaller = createCallerFactory(appRouter);
