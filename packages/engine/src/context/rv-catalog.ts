// The RV service desk's procedure catalog: four systems, each a short isolation procedure with
// branches, safety and warranty constraints. The same data ships as catalogs/rv-service.json
// (a test keeps the two equal); the format is described in CATALOG.md.

import type { TCatalog } from "./catalog-schema";

const PUMP_LOCATION =
  "The pump sits near the fresh-water tank: usually under a dinette seat, under the bed, or in a basement bay next to the water heater bypass valves.";

export const RV_SERVICE_CATALOG: TCatalog = {
  id: "rv_service",
  title: "RV service desk: guided diagnostics",
  systems: [
    {
      id: "water_pump",
      name: "12 V fresh-water pump",
      detect: {
        keywords: ["water pump", "pump", "faucet", "faucets", "water pressure", "fresh water", "no water"],
        phrases: [
          "pump won't run",
          "pump doesn't run",
          "pump runs but no water",
          "pump keeps cycling",
          "pump keeps running",
          "no water from the faucet",
          "no water pressure",
        ],
      },
      procedure: {
        id: "water_pump_isolation",
        title: "12 V water pump: no water, no pressure or cycling",
        steps: [
          {
            id: "fuse",
            question: "Is the water pump fuse (or 12 V breaker) at the distribution panel intact?",
            howto:
              "With the battery disconnect ON, pull the fuse labelled WATER PUMP and look at the element, or test both sides of it to ground with a test light or meter. A tripped 12 V breaker has its button popped out.",
            locate:
              "The 12 V fuse panel is usually part of the converter / distribution centre with the 120 V breakers: under a bed, in a hallway cabinet or in a basement bay. The pump circuit is labelled WATER PUMP or PUMP.",
            explain:
              "Nothing downstream works without 12 V on the pump circuit. A blown fuse is the cheapest fault to find, and it also points to a short or a seized pump.",
            minutes: 5,
            answers: [
              {
                id: "ok",
                label: "Fuse intact / breaker on",
                patterns: [
                  "yes",
                  "intact",
                  "fuse is good",
                  "fuse is fine",
                  "fuse is ok",
                  "fuse ok",
                  "fuse good",
                  "fuse was fine",
                  "fuse was good",
                  "good fuse",
                  "not blown",
                  "isn't blown",
                  "wasn't blown",
                  "breaker is on",
                  "not tripped",
                ],
                finding: "fuse=ok",
              },
              {
                id: "blown",
                label: "Fuse blown / breaker tripped",
                patterns: [
                  "no",
                  "blown",
                  "fuse is blown",
                  "fuse was blown",
                  "fuse blown",
                  "blown fuse",
                  "burnt",
                  "burned out",
                  "tripped",
                  "breaker tripped",
                  "breaker was tripped",
                ],
                finding: "fuse=blown",
                next: "report",
                cause: "Open water-pump fuse or tripped 12 V breaker: the pump has no supply.",
                correction:
                  "Replace the fuse with one of the same rating (or reset the breaker) and run the pump. If it blows again, find the short or the seized pump before returning the unit.",
              },
            ],
          },
          {
            id: "voltage_at_pump",
            question:
              "With the pump switch ON, is there battery voltage at the pump connector: about 12 V, low (under 11.5 V), or none?",
            howto:
              "Set the meter to DC volts. Back-probe the pump's positive and ground wires at its connector with the pump switch ON and a faucet open. Compare with battery voltage: more than 0.5 V lower points to a bad connection or ground.",
            locate: PUMP_LOCATION,
            explain:
              "Voltage at the pump splits the problem in two: with 12 V present the fault is the pump or the water supply; without it, the switch or the wiring.",
            minutes: 10,
            answers: [
              {
                id: "ok",
                label: "About 12 V at the pump",
                patterns: [
                  "yes",
                  "12v",
                  "12 v",
                  "12 volts",
                  "twelve volts",
                  "11.5",
                  "11.6",
                  "11.7",
                  "11.8",
                  "11.9",
                  "12.0",
                  "12.1",
                  "12.2",
                  "12.3",
                  "12.4",
                  "12.5",
                  "12.6",
                  "12.7",
                  "12.8",
                  "12.9",
                  "13",
                  "battery voltage",
                  "full voltage",
                  "voltage is good",
                  "voltage ok",
                  "have voltage",
                  "has voltage",
                  "power at the pump",
                  "pump has power",
                ],
                finding: "pump_voltage=ok",
                next: "pump_runs",
              },
              {
                id: "low",
                label: "Low (under 11.5 V)",
                patterns: [
                  "low",
                  "low voltage",
                  "voltage is low",
                  "under 11",
                  "below 11",
                  "11.0",
                  "11.1",
                  "11.2",
                  "11.3",
                  "11.4",
                  "11 volts",
                  "10 volts",
                  "9 volts",
                  "weak",
                ],
                finding: "pump_voltage=low",
                next: "report",
                cause: "Low 12 V supply at the pump (battery, converter, or voltage drop in the pump wiring).",
                correction:
                  "Charge or replace the battery, check the converter output, and clean and tighten the pump's positive and ground connections; recheck the voltage at the pump under load.",
              },
              {
                id: "none",
                label: "No voltage",
                patterns: [
                  "no",
                  "none",
                  "no voltage",
                  "0 volts",
                  "zero volts",
                  "zero",
                  "no power",
                  "no power at the pump",
                  "no 12v",
                  "no 12 v",
                ],
                finding: "pump_voltage=none",
                next: "pump_switch",
              },
            ],
          },
          {
            id: "pump_switch",
            question: "With the pump switch ON, is there 12 V on the switch's output terminal?",
            howto:
              "Remove the pump switch from its panel (usually two screws). With the switch ON, test its input and output terminals to ground: input but no output means the switch has failed.",
            locate:
              "The pump switch is on the monitor panel, usually in the kitchen or by the entry door; many units have a second switch in the wet bay.",
            explain:
              "There is voltage at the fuse but none at the pump, so the break is the switch or the wire between them.",
            minutes: 15,
            constraints: ["battery_disconnect"],
            requires: { finding: "pump_voltage=none" },
            answers: [
              {
                id: "bad",
                label: "No output: switch failed",
                patterns: [
                  "no",
                  "no output",
                  "input but no output",
                  "switch is bad",
                  "bad switch",
                  "switch failed",
                  "switch is dead",
                ],
                finding: "pump_switch=bad",
                next: "report",
                cause: "Failed pump switch: 12 V in, nothing out.",
                correction: "Replace the pump switch (and the second switch if the unit has two in series).",
              },
              {
                id: "ok",
                label: "12 V out: switch works",
                patterns: ["yes", "has output", "output ok", "12v out", "switch is good", "switch ok", "switch works"],
                finding: "pump_switch=ok",
                next: "report",
                cause: "Open circuit between the pump switch and the pump (feed wire, connector or ground).",
                correction:
                  "Trace the pump feed and ground between the switch and the pump; repair the open connection or wire and recheck 12 V at the pump.",
              },
            ],
          },
          {
            id: "pump_runs",
            question: "Open a faucet. Does the pump run, and does water come out?",
            howto:
              "Open the kitchen cold faucet and listen at the pump. Note whether it runs, whether water flows steadily, and whether the pump stops about a minute after you close the faucet.",
            locate: PUMP_LOCATION,
            explain:
              "How the pump behaves picks the branch: a dead pump with 12 V is the motor; a pump that runs dry points to the supply (tank, strainer, air leak); a pump that will not stop points to the pressure switch or a leak.",
            minutes: 5,
            answers: [
              {
                id: "no",
                label: "Pump does not run",
                patterns: [
                  "no",
                  "doesn't run",
                  "does not run",
                  "won't run",
                  "will not run",
                  "not running",
                  "pump is dead",
                  "dead",
                  "silent",
                  "no sound",
                  "won't turn on",
                  "doesn't turn on",
                ],
                finding: "pump_runs=no",
                next: "report",
                cause: "Pump motor failed: 12 V is present at the pump but the motor does not run.",
                correction: "Replace the water pump with one of the same flow and pressure rating.",
              },
              {
                id: "no_water",
                label: "Runs, but little or no water (sputters)",
                patterns: [
                  "no water",
                  "runs but no water",
                  "runs dry",
                  "sputters",
                  "sputtering",
                  "spits",
                  "spitting",
                  "air in the lines",
                  "no flow",
                  "weak flow",
                  "little water",
                  "nothing comes out",
                ],
                finding: "pump_runs=no_water",
                next: "tank_level",
              },
              {
                id: "cycles",
                label: "Runs, but won't shut off or keeps cycling",
                patterns: [
                  "keeps running",
                  "won't stop",
                  "will not stop",
                  "doesn't stop",
                  "won't shut off",
                  "doesn't shut off",
                  "runs constantly",
                  "cycles",
                  "cycling",
                  "keeps cycling",
                  "short cycles",
                  "comes on by itself",
                  "turns on by itself",
                ],
                finding: "pump_runs=cycles",
                next: "pressure_switch",
              },
              {
                id: "yes",
                label: "Runs and delivers water normally",
                patterns: [
                  "yes",
                  "runs",
                  "it runs",
                  "pump runs",
                  "does run",
                  "pump does run",
                  "runs fine",
                  "runs normally",
                  "water comes out",
                  "good flow",
                ],
                finding: "pump_runs=yes",
                next: "leaks",
              },
            ],
          },
          {
            id: "tank_level",
            question: "Is there water in the fresh-water tank?",
            howto:
              "Read the tank level on the monitor panel, then confirm: look through the fill, or add a few gallons and see whether the pump primes. Monitor panels often read wrong.",
            locate:
              "The fresh-water tank is under the floor or in a basement bay; its fill is on the street or curb side, marked FRESH WATER or POTABLE.",
            explain: "A pump that runs but moves no water is most often simply out of water.",
            minutes: 5,
            requires: { finding: "pump_runs=no_water" },
            answers: [
              {
                id: "empty",
                label: "Tank empty",
                patterns: [
                  "empty",
                  "tank is empty",
                  "tank was empty",
                  "tank empty",
                  "no water in the tank",
                  "reads empty",
                  "dry",
                ],
                finding: "tank_level=empty",
                next: "report",
                cause: "The fresh-water tank is empty.",
                correction:
                  "Fill the fresh-water tank and prime the pump by running a faucet until the flow is steady. If the monitor read full, clean or recalibrate the tank sensors.",
              },
              {
                id: "ok",
                label: "Tank has water",
                patterns: [
                  "yes",
                  "has water",
                  "tank has water",
                  "tank is full",
                  "full",
                  "half",
                  "half full",
                  "plenty",
                  "water in the tank",
                  "tank ok",
                ],
                finding: "tank_level=ok",
              },
            ],
          },
          {
            id: "strainer",
            question:
              "Check the inlet strainer and the suction side: is the strainer clogged, is the pump sucking air, or is everything clean and tight?",
            howto:
              "Relieve pressure, unscrew the clear strainer bowl at the pump inlet and clean the screen. Check the inlet hose clamps and fittings, the winterising bypass valve position, and the tank outlet for cracks: bubbles in the strainer bowl mean the pump is sucking air.",
            locate: "The strainer is the clear bowl on the pump's inlet side, between the tank hose and the pump head.",
            explain:
              "With water in the tank, a pump that cannot prime is starved (clogged strainer) or sucking air (loose fitting, open bypass); only when both are ruled out is the pump itself suspect.",
            minutes: 15,
            constraints: ["relieve_pressure"],
            requires: { finding: "pump_runs=no_water" },
            answers: [
              {
                id: "clogged",
                label: "Strainer clogged",
                patterns: ["clogged", "plugged", "blocked", "dirty", "debris", "full of debris", "gunk"],
                finding: "strainer=clogged",
                next: "report",
                cause: "Clogged pump inlet strainer starves the pump.",
                correction:
                  "Clean or replace the strainer screen, reassemble with the O-ring seated, and prime the pump.",
              },
              {
                id: "air_leak",
                label: "Sucking air (loose fitting, crack, bypass open)",
                patterns: [
                  "air leak",
                  "sucking air",
                  "sucks air",
                  "bubbles",
                  "loose fitting",
                  "loose clamp",
                  "cracked",
                  "bypass open",
                  "bypass was open",
                  "bypass valve open",
                ],
                finding: "strainer=air_leak",
                next: "report",
                cause: "Air leak on the suction side (fitting, clamp, cracked inlet or open winterising bypass).",
                correction:
                  "Tighten or replace the leaking inlet fitting or clamp, close the winterising bypass, and prime the pump.",
              },
              {
                id: "clear",
                label: "Clean and tight",
                patterns: ["clean", "clear", "strainer is clean", "looks clean", "no air leak", "all tight", "tight"],
                finding: "strainer=clear",
                next: "report",
                escalate: "warranty",
                cause:
                  "The pump runs but cannot prime with water in the tank and a clean, tight inlet: internal pump failure (diaphragm or check valves).",
                correction:
                  "Do not open the pump under warranty: escalate to the dealer for a warranty pump replacement.",
              },
            ],
          },
          {
            id: "pressure_switch",
            question: "With every faucet closed, does the pump shut off once pressure builds, and stay off?",
            howto:
              "Close all faucets and watch the pump. It should stop within a minute and stay off. If it runs on, the pressure switch is not opening; if it stops and then restarts every few minutes, pressure is bleeding off through a leak or the pump's check valve.",
            locate:
              "The pressure switch is the small housing on the pump head with two wires and an adjustment screw under a cap.",
            explain:
              "The pressure switch turns the pump off at cut-off pressure. A pump that never stops has a switch fault; one that restarts on its own is losing pressure somewhere.",
            minutes: 10,
            constraints: ["relieve_pressure"],
            requires: { finding: "pump_runs=cycles" },
            answers: [
              {
                id: "runs_on",
                label: "Never shuts off",
                patterns: [
                  "no",
                  "never stops",
                  "never shuts off",
                  "keeps running",
                  "runs on",
                  "won't shut off",
                  "doesn't shut off",
                  "does not shut off",
                  "runs constantly",
                ],
                finding: "pressure_switch=fails",
                next: "report",
                cause: "The pressure switch does not open at cut-off pressure, so the pump runs continuously.",
                correction:
                  "Replace the pump's pressure switch (or the pump head assembly). Do not raise the cut-off above the pump's rating.",
              },
              {
                id: "restarts",
                label: "Shuts off, then restarts on its own",
                patterns: [
                  "restarts",
                  "comes back on",
                  "turns back on",
                  "kicks back on",
                  "kicks on",
                  "shuts off then restarts",
                  "stops then restarts",
                  "short cycles",
                  "cycling",
                ],
                finding: "pressure_switch=bleeds",
              },
              {
                id: "holds",
                label: "Shuts off and stays off",
                patterns: ["yes", "stays off", "shuts off", "shuts off and stays off", "stops and stays off", "stops"],
                finding: "pressure_switch=holds",
              },
            ],
          },
          {
            id: "leaks",
            question:
              "With everything closed, is there a leak anywhere: under the sinks, at the water heater and its bypass, the toilet valve, the city-water inlet or the low-point drains?",
            howto:
              "Pressurise the system, close all faucets and walk the plumbing with a flashlight: under sinks, behind the water heater access door, at the toilet's water valve, the city-water inlet check valve, and the low-point drains under the unit. Look for drips, wet wood or puddles.",
            locate:
              "Low-point drains are under the unit near the fresh-water tank; the water heater bypass is behind the water heater's inside access panel.",
            explain:
              "A pump that restarts by itself is refilling pressure that escapes somewhere; outside leaks are the usual cause, otherwise the pump's own check valve.",
            minutes: 20,
            constraints: ["relieve_pressure", "water_heater_off"],
            answers: [
              {
                id: "found",
                label: "Leak found",
                patterns: [
                  "yes",
                  "leak",
                  "leaking",
                  "found a leak",
                  "found the leak",
                  "drip",
                  "dripping",
                  "wet",
                  "puddle",
                ],
                finding: "leaks=found",
                next: "report",
                cause: "A plumbing leak lets pressure bleed off, so the pump restarts to make it up.",
                correction:
                  "Repair the leaking fitting or valve, re-pressurise, and confirm the pump stays off for 15 minutes with all faucets closed.",
              },
              {
                id: "none",
                label: "No leak",
                patterns: ["no", "no leaks", "no leak", "none", "all dry", "no drips", "nothing leaking"],
                finding: "leaks=none",
                next: "report",
                cause: "No external leak: pressure bleeds back through the pump's internal check valve.",
                correction:
                  "Replace the pump check valve or pump head per the pump manufacturer and recheck that the pump stays off.",
              },
            ],
          },
        ],
      },
      constraints: {
        safety: [
          {
            id: "relieve_pressure",
            text: "Turn the pump switch off and open a faucet to relieve pressure before opening the strainer or any fitting.",
          },
          {
            id: "battery_disconnect",
            text: "Set the battery disconnect off before removing or rewiring the pump switch or the pump.",
          },
          {
            id: "water_heater_off",
            text: "Turn the water heater off (LP and electric) before draining or opening the plumbing; never run it dry.",
          },
        ],
        warranty: [
          {
            id: "pump_sealed",
            text: "The pump is under its manufacturer's warranty: do not disassemble the pump head or motor; replace it as a unit or escalate to the dealer for a claim.",
            always: true,
          },
        ],
      },
    },
    {
      id: "roof_ac",
      name: "Rooftop air conditioner",
      detect: {
        keywords: ["a/c", "ac", "air conditioner", "air conditioning", "rooftop unit", "compressor", "cooling"],
        phrases: [
          "not cooling",
          "blowing warm air",
          "ac won't turn on",
          "a/c won't turn on",
          "air conditioner won't start",
        ],
      },
      procedure: {
        id: "roof_ac_isolation",
        title: "Rooftop A/C: not cooling or not running",
        steps: [
          {
            id: "power",
            question: "Is 120 V reaching the A/C: shore power or generator on, and the A/C breaker in the panel ON?",
            howto:
              "Check the pedestal or generator, then the A/C breaker in the 120 V panel. With a meter, confirm 108–130 V AC at an outlet on the same circuit (or at the A/C's junction box with the ceiling assembly off).",
            locate:
              "The 120 V breakers are in the converter / distribution centre, usually under a bed, in a hallway cabinet or in a basement bay; the A/C breaker is labelled AC or AIR.",
            explain: "The compressor and fan run on 120 V; low voltage also damages compressors, so it comes first.",
            minutes: 5,
            answers: [
              {
                id: "ok",
                label: "120 V present, breaker on",
                patterns: [
                  "yes",
                  "power is on",
                  "breaker is on",
                  "120v",
                  "120 v",
                  "120 volts",
                  "has power",
                  "power is good",
                  "power ok",
                ],
                finding: "ac_power=ok",
              },
              {
                id: "tripped",
                label: "A/C breaker tripped",
                patterns: [
                  "tripped",
                  "breaker tripped",
                  "breaker is tripped",
                  "breaker was tripped",
                  "keeps tripping",
                  "trips",
                ],
                finding: "ac_power=tripped",
                next: "report",
                cause: "The A/C breaker was tripped.",
                correction:
                  "Reset the A/C breaker once. If it trips again, do not keep resetting it: check the supply and the compressor's current draw before returning the unit.",
              },
              {
                id: "none",
                label: "No or low 120 V",
                patterns: [
                  "no",
                  "no power",
                  "no 120",
                  "no 120v",
                  "low voltage",
                  "under 108",
                  "generator off",
                  "not plugged in",
                ],
                finding: "ac_power=none",
                next: "report",
                cause: "No (or low) 120 V supply at the A/C: pedestal, cord, transfer switch or generator.",
                correction:
                  "Restore the 120 V supply (pedestal breaker, cord, transfer switch, generator). Below 108 V do not run the A/C: it can damage the compressor.",
              },
            ],
          },
          {
            id: "thermostat",
            question: "Set the thermostat to COOL, below room temperature. Does it call for cooling?",
            howto:
              "Set COOL with the setpoint at least 3 °F below room temperature. Most thermostats click and show a cooling icon; digital ones may show a delay timer first.",
            locate:
              "The thermostat is on the wall of the main living area, usually near the entry door or the hallway.",
            explain: "The A/C does nothing until the thermostat calls for cooling over its 12 V control wiring.",
            minutes: 5,
            answers: [
              {
                id: "calls",
                label: "Calls for cooling",
                patterns: [
                  "yes",
                  "calls for cool",
                  "calls for cooling",
                  "calling",
                  "clicks",
                  "shows cool",
                  "snowflake",
                ],
                finding: "thermostat_cool=calls",
              },
              {
                id: "no_call",
                label: "No call (blank or no click)",
                patterns: [
                  "no",
                  "doesn't call",
                  "does not call",
                  "blank",
                  "display blank",
                  "no display",
                  "no click",
                  "thermostat is dead",
                ],
                finding: "thermostat_cool=no_call",
                next: "report",
                cause:
                  "The thermostat does not call for cooling (no 12 V at the thermostat, its fuse, or a failed thermostat).",
                correction: "Check the thermostat's 12 V fuse and wiring; reset or replace the thermostat.",
              },
            ],
          },
          {
            id: "fan",
            question: "Does the indoor blower fan run and move air at the ceiling vents?",
            howto: "Set the fan to HIGH and hold a hand or a tissue at a ceiling vent.",
            locate: "The blower is inside the roof unit, behind the ceiling assembly's vents.",
            explain: "Without airflow the coil freezes and the unit cannot cool, whatever the compressor does.",
            minutes: 5,
            constraints: ["shore_power_off"],
            answers: [
              {
                id: "runs",
                label: "Fan runs",
                patterns: [
                  "yes",
                  "fan runs",
                  "fan is running",
                  "blower runs",
                  "air is moving",
                  "air moving",
                  "blowing",
                ],
                finding: "ac_fan=runs",
              },
              {
                id: "no",
                label: "Fan does not run",
                patterns: [
                  "no",
                  "fan doesn't run",
                  "fan does not run",
                  "fan won't run",
                  "no fan",
                  "no air",
                  "fan is dead",
                ],
                finding: "ac_fan=no",
                next: "report",
                cause: "The blower fan motor does not run (motor, fan capacitor or control board).",
                correction:
                  "With power off and the capacitor discharged, test the fan motor and its capacitor; replace the failed part.",
              },
            ],
          },
          {
            id: "compressor",
            question:
              "Wait 3 minutes (the compressor delay). Does the compressor start: a hum from the roof unit, the condenser fan turning, and colder air?",
            howto:
              "Stand outside or listen at a vent after the delay. The compressor is a low hum and the air turns cold within a minute; a click and hum that stops after a few seconds is a failed start.",
            locate:
              "The compressor is in the rear half of the roof unit, under the shroud, next to the condenser coil.",
            explain:
              "Fan without compressor means no cooling; a compressor that will not start is most often its start/run capacitor.",
            minutes: 10,
            constraints: ["roof_access"],
            answers: [
              {
                id: "runs",
                label: "Compressor starts",
                patterns: [
                  "yes",
                  "compressor runs",
                  "compressor starts",
                  "compressor is running",
                  "kicks on",
                  "air is cold",
                  "cold air",
                ],
                finding: "compressor=runs",
                next: "airflow",
              },
              {
                id: "no_start",
                label: "Compressor does not start (or hums and stops)",
                patterns: [
                  "no",
                  "doesn't start",
                  "does not start",
                  "won't start",
                  "compressor won't start",
                  "hums",
                  "humming",
                  "clicks off",
                  "only the fan",
                  "just the fan",
                ],
                finding: "compressor=no_start",
                next: "capacitor",
              },
            ],
          },
          {
            id: "capacitor",
            question:
              "With power off and the capacitor discharged, test the compressor's start/run capacitor: is it within ±6% of its rated µF and not bulged or leaking?",
            howto:
              "Disconnect shore power and the generator, remove the shroud, discharge the capacitor across its terminals with an insulated resistor tool, label and remove the wires, and read it on the meter's capacitance range.",
            locate: "The capacitors are in the roof unit's electrical box under the shroud, beside the compressor.",
            explain: "A weak capacitor cannot start the compressor; it is a cheap part and the usual cause.",
            minutes: 20,
            constraints: ["shore_power_off", "capacitor_charge", "roof_access", "compressor_authorization"],
            requires: { finding: "compressor=no_start" },
            answers: [
              {
                id: "bad",
                label: "Out of spec, bulged or leaking",
                patterns: [
                  "no",
                  "bad",
                  "bulged",
                  "bulging",
                  "leaking",
                  "out of spec",
                  "reads low",
                  "weak",
                  "failed",
                  "bad capacitor",
                ],
                finding: "capacitor=bad",
                next: "report",
                cause: "Failed compressor start/run capacitor.",
                correction:
                  "Replace the capacitor with the same µF and voltage rating (discharge first), then verify the compressor starts and draws normal current.",
              },
              {
                id: "good",
                label: "Within spec",
                patterns: ["yes", "good", "in spec", "within spec", "capacitor is good", "capacitor ok", "reads ok"],
                finding: "capacitor=good",
                next: "report",
                escalate: "warranty",
                cause:
                  "The compressor does not start with 120 V present and a good capacitor: suspected compressor fault.",
                correction: "Do not open the sealed system: escalate to the dealer for a warranty A/C evaluation.",
              },
            ],
          },
          {
            id: "airflow",
            question:
              "Run it 15 minutes. Are the return filters clean, and is the supply air 15–20 °F colder than the return air?",
            howto:
              "Remove the return-air grille and inspect the filters. Measure the return air at the ceiling intake and the supply air at the nearest vent with a probe thermometer; a 15–20 °F drop is normal.",
            locate: "The return-air filters sit behind the ceiling assembly's centre grille.",
            explain:
              "Temperature drop is the best field test of a sealed system: a normal drop with clean filters means the A/C works; a low drop with clean filters points into the sealed system.",
            minutes: 20,
            answers: [
              {
                id: "good",
                label: "Filters clean, 15–20 °F drop",
                patterns: [
                  "yes",
                  "normal",
                  "temp drop is good",
                  "drop is good",
                  "20 degrees",
                  "18 degrees",
                  "15 degrees",
                  "cold",
                ],
                finding: "airflow=good",
                next: "report",
                cause: "No fault found: the A/C cools within specification (15–20 °F drop).",
                correction:
                  "No repair needed; advise the customer on filter cleaning and heat load (sun, outside temperature, closed blinds).",
              },
              {
                id: "dirty_filter",
                label: "Filters dirty",
                patterns: [
                  "dirty",
                  "filters dirty",
                  "filter is dirty",
                  "filters are dirty",
                  "dirty filter",
                  "clogged filter",
                ],
                finding: "airflow=dirty_filter",
                next: "report",
                cause: "Restricted airflow from dirty return-air filters.",
                correction: "Clean or replace the filters and recheck the temperature drop.",
              },
              {
                id: "weak",
                label: "Clean filters but a small drop (or icing)",
                patterns: [
                  "no",
                  "weak",
                  "warm",
                  "not cold",
                  "barely cold",
                  "small drop",
                  "10 degrees",
                  "5 degrees",
                  "icing",
                  "frozen",
                ],
                finding: "airflow=weak",
                next: "report",
                escalate: "warranty",
                cause:
                  "A low temperature drop with clean filters and a running compressor: suspected refrigerant or coil problem in the sealed system.",
                correction: "Do not open the sealed system under warranty: escalate to the dealer.",
              },
            ],
          },
        ],
      },
      constraints: {
        safety: [
          {
            id: "shore_power_off",
            text: "Disconnect shore power and turn off the generator and inverter before removing the A/C shroud or the ceiling assembly.",
          },
          {
            id: "capacitor_charge",
            text: "Capacitors hold a charge: discharge them with an insulated resistor tool before touching the terminals.",
          },
          {
            id: "roof_access",
            text: "Use a ladder rated for the height and stay off a wet roof; check that the roof is walkable before stepping on it.",
          },
        ],
        warranty: [
          {
            id: "sealed_system",
            text: "Do not open the sealed refrigerant circuit (no piercing valves, gauges or recharge) under warranty; escalate to the dealer.",
            always: true,
          },
          {
            id: "compressor_authorization",
            text: "Compressor or A/C unit replacement under warranty needs the manufacturer's authorization: escalate to the dealer first.",
          },
        ],
      },
    },
    {
      id: "furnace",
      name: "LP furnace",
      detect: {
        keywords: ["furnace", "heat", "heater", "heating", "igniter", "propane", "lp", "sail switch", "limit switch"],
        phrases: [
          "no heat",
          "furnace won't light",
          "furnace won't start",
          "furnace blows cold air",
          "furnace keeps cycling",
        ],
      },
      procedure: {
        id: "furnace_isolation",
        title: "LP furnace: no heat or short-cycling",
        steps: [
          {
            id: "lp_level",
            question: "Is there LP with the tank valve open: does a stove burner light and hold a steady blue flame?",
            howto:
              "Open the LP tank valve slowly, then light a stove-top burner. A weak, yellow or sputtering flame means low LP or a regulator problem.",
            locate: "The LP tank is in a front compartment or under the entry step; the valve is on top of the tank.",
            explain: "Every furnace fault looks the same without gas; the stove is a free LP test.",
            minutes: 5,
            answers: [
              {
                id: "ok",
                label: "LP OK (stove lights)",
                patterns: [
                  "yes",
                  "stove lights",
                  "burner lights",
                  "stove works",
                  "has propane",
                  "has lp",
                  "lp ok",
                  "propane ok",
                  "tank is full",
                ],
                finding: "lp=ok",
              },
              {
                id: "empty",
                label: "No LP (empty or valve closed)",
                patterns: [
                  "no",
                  "empty",
                  "out of propane",
                  "out of lp",
                  "no propane",
                  "no lp",
                  "tank is empty",
                  "stove won't light",
                  "valve closed",
                  "valve was closed",
                ],
                finding: "lp=empty",
                next: "report",
                cause: "No LP supply (tank empty or valve closed).",
                correction:
                  "Refill the LP tank or open the valve, purge air by lighting a stove burner, then retest the furnace.",
              },
            ],
          },
          {
            id: "thermostat",
            question: "Set the thermostat to HEAT above room temperature. Does it call for heat?",
            howto:
              "Set HEAT with the setpoint at least 3 °F above room temperature. Listen for the click and look for a heating icon; on dual-fuel units select the furnace, not the heat pump.",
            locate:
              "The thermostat is on the wall of the main living area, usually near the entry door or the hallway.",
            explain: "The furnace starts only when the thermostat closes its heat circuit.",
            minutes: 5,
            answers: [
              {
                id: "calls",
                label: "Calls for heat",
                patterns: ["yes", "calls for heat", "calling for heat", "clicks", "shows heat", "flame icon"],
                finding: "thermostat_heat=calls",
              },
              {
                id: "no_call",
                label: "No call (blank or no click)",
                patterns: [
                  "no",
                  "doesn't call",
                  "does not call",
                  "no click",
                  "blank",
                  "display blank",
                  "no display",
                  "thermostat is dead",
                ],
                finding: "thermostat_heat=no_call",
                next: "report",
                cause: "The thermostat does not call for heat.",
                correction:
                  "Check 12 V at the thermostat and its wiring; replace the thermostat if it has power but does not close the heat circuit.",
              },
            ],
          },
          {
            id: "blower",
            question: "Within about 30 seconds, does the furnace blower start?",
            howto: "Listen at the furnace's outside vent and feel the floor or wall registers for moving air.",
            locate: "The furnace is low in a cabinet or under a bed or couch, with its vent on the outside wall.",
            explain: "The blower purges the burner and closes the sail switch; the furnace will not ignite without it.",
            minutes: 5,
            answers: [
              {
                id: "runs",
                label: "Blower runs",
                patterns: [
                  "yes",
                  "blower runs",
                  "blower starts",
                  "blower comes on",
                  "fan runs",
                  "fan starts",
                  "fan comes on",
                ],
                finding: "blower=runs",
              },
              {
                id: "no",
                label: "Blower does not start",
                patterns: [
                  "no",
                  "no blower",
                  "blower doesn't start",
                  "blower won't start",
                  "fan doesn't start",
                  "fan won't start",
                  "silent",
                ],
                finding: "blower=no",
                next: "report",
                cause: "The furnace blower does not start (low 12 V, blower motor, fuse or control board).",
                correction:
                  "Check battery voltage at the furnace under load (at least 12 V) and the furnace fuse; replace the blower motor if it has voltage but does not run.",
              },
            ],
          },
          {
            id: "sail_switch",
            question: "With the blower at full speed, does the sail switch close (continuity across its terminals)?",
            howto:
              "With 12 V off, remove the furnace access cover, pull one wire from the sail switch and check it with an ohmmeter while the blower runs (power back on, hands clear), or watch the sail move and the switch click.",
            locate:
              "The sail switch is inside the furnace, next to the blower wheel, with a thin paddle (the sail) in the airflow.",
            explain:
              "The sail switch proves there is enough airflow to burn safely; if it stays open the board never tries to ignite.",
            minutes: 15,
            constraints: ["furnace_12v_off", "never_bypass"],
            answers: [
              {
                id: "closed",
                label: "Closes (continuity)",
                patterns: [
                  "yes",
                  "closed",
                  "closes",
                  "continuity",
                  "has continuity",
                  "sail switch closes",
                  "sail switch ok",
                ],
                finding: "sail_switch=closed",
              },
              {
                id: "open",
                label: "Stays open",
                patterns: [
                  "no",
                  "open",
                  "stays open",
                  "no continuity",
                  "doesn't close",
                  "sail switch open",
                  "lint",
                  "bent",
                  "sticking",
                  "stuck",
                ],
                finding: "sail_switch=open",
                next: "report",
                cause:
                  "The sail switch does not close (lint, low blower speed from low voltage, or a bent or failed switch).",
                correction:
                  "Clean lint from the sail and the blower wheel and check the voltage; replace the sail switch if it still does not close. Never jumper it.",
              },
            ],
          },
          {
            id: "ignition",
            question: "At the outside vent: do you hear the igniter click, and does the burner light and stay lit?",
            howto:
              "About 15 seconds after the blower starts, listen at the exhaust for the spark and the burner's 'whoomp', then watch for the flame through the sight window or feel warm exhaust. Note whether it goes out and the furnace locks out after 3 tries.",
            locate: "The igniter electrode and flame sensor sit at the burner, behind the furnace's access cover.",
            explain: "Spark, flame and flame sense are three separate parts; which one fails picks the repair.",
            minutes: 10,
            constraints: ["furnace_12v_off"],
            answers: [
              {
                id: "stays_lit",
                label: "Lights and stays lit",
                patterns: ["yes", "lights", "it lights", "burner lights", "stays lit", "lights and stays lit", "flame"],
                finding: "ignition=stays_lit",
              },
              {
                id: "no_spark",
                label: "No spark / never lights",
                patterns: [
                  "no",
                  "no spark",
                  "no click",
                  "no clicking",
                  "doesn't spark",
                  "no ignition",
                  "never lights",
                  "doesn't light",
                  "won't light",
                ],
                finding: "ignition=no_spark",
                next: "report",
                cause: "No ignition attempt: igniter electrode, its high-voltage lead or the control board.",
                correction:
                  "Inspect and re-gap the electrode and check the high-voltage lead; replace the control board as a unit if it still does not spark.",
              },
              {
                id: "drops_out",
                label: "Lights, then goes out (lockout)",
                patterns: [
                  "goes out",
                  "lights then goes out",
                  "flame goes out",
                  "drops out",
                  "lockout",
                  "locks out",
                  "lights for a few seconds",
                ],
                finding: "ignition=drops_out",
                next: "report",
                escalate: "warranty",
                cause: "The burner lights but does not stay lit (flame sense or gas valve).",
                correction:
                  "Clean the flame-sense electrode and check its ground; if it still drops out, do not disassemble the gas valve or the board: escalate to the dealer.",
              },
            ],
          },
          {
            id: "limit_switch",
            question:
              "Does the furnace run until the room reaches temperature, or does the burner shut off early and cycle (short-cycling)?",
            howto:
              "Run it 10 minutes with all registers open and the return unblocked. If the burner shuts off while the blower keeps running and then relights, the high-limit switch is opening: check for blocked registers and ducts, then test the limit for continuity when cool.",
            locate: "The high-limit switch is a small disc on the heat exchanger, behind the furnace's access cover.",
            explain:
              "The limit switch shuts the burner off when the furnace overheats; it opening early means restricted airflow or a weak switch.",
            minutes: 15,
            constraints: ["never_bypass"],
            answers: [
              {
                id: "normal",
                label: "Runs normally to temperature",
                patterns: [
                  "yes",
                  "runs normally",
                  "heats normally",
                  "heats fine",
                  "reaches temperature",
                  "stays on",
                  "normal",
                ],
                finding: "limit=normal",
                next: "report",
                cause: "No fault found: the furnace lights and heats normally during the test.",
                correction:
                  "No repair needed; review thermostat placement and LP supply with the customer. An intermittent fault may need a longer run test.",
              },
              {
                id: "short_cycles",
                label: "Shuts off early and cycles",
                patterns: [
                  "no",
                  "short cycling",
                  "short cycles",
                  "cycles",
                  "keeps cycling",
                  "shuts off early",
                  "burner shuts off",
                  "limit trips",
                  "limit opens",
                  "overheats",
                ],
                finding: "limit=short_cycles",
                next: "report",
                cause:
                  "The furnace short-cycles on its high-limit switch (restricted airflow or a failing limit switch).",
                correction:
                  "Clear blocked registers, ducts and the return; replace the limit switch with the exact OEM part if it opens early. Never bypass it.",
              },
            ],
          },
        ],
      },
      constraints: {
        safety: [
          {
            id: "lp_leak",
            text: "If anyone smells LP: shut the tank valve, no flames or switches, ventilate, and do not continue until the system passes a leak test.",
            always: true,
          },
          {
            id: "never_bypass",
            text: "Never bypass the furnace limit switch or sail switch, not even to test.",
            always: true,
          },
          {
            id: "furnace_12v_off",
            text: "Turn 12 V off at the furnace fuse before removing the access cover or wiring.",
          },
        ],
        warranty: [
          {
            id: "gas_valve",
            text: "Do not disassemble or adjust the gas valve or the control board under warranty; replace them as units through the dealer.",
            always: true,
          },
        ],
      },
    },
    {
      id: "slide_out",
      name: "Slide-out room",
      detect: {
        keywords: ["slide", "slide out", "slide-out", "slideout", "slide room", "retract", "extend"],
        phrases: ["slide won't move", "slide won't retract", "slide won't extend", "slide is stuck", "slide stuck"],
      },
      procedure: {
        id: "slide_out_isolation",
        title: "Slide-out: will not move, or stalls",
        steps: [
          {
            id: "battery",
            question:
              "What is the battery voltage at the batteries (engine and generator off, charger off)? Is it at least 12.4 V?",
            howto:
              "Turn off chargers and let the batteries rest a few minutes, then measure across the battery posts with a meter on DC volts. 12.6 V is full; under 12.4 V slides often stall.",
            locate:
              "The house batteries are in a front or side compartment, or under the entry steps on smaller units.",
            explain: "Slide motors draw 30–50 A; a weak battery is the most common reason a slide will not move.",
            minutes: 5,
            answers: [
              {
                id: "ok",
                label: "12.4 V or more",
                patterns: [
                  "yes",
                  "12.4",
                  "12.5",
                  "12.6",
                  "12.7",
                  "12.8",
                  "13",
                  "above 12.4",
                  "battery is good",
                  "battery ok",
                  "fully charged",
                  "charged",
                ],
                finding: "battery=ok",
              },
              {
                id: "low",
                label: "Under 12.4 V",
                patterns: [
                  "no",
                  "low",
                  "12.0",
                  "12.1",
                  "12.2",
                  "12.3",
                  "11",
                  "below 12",
                  "below 12.4",
                  "under 12",
                  "battery is low",
                  "battery low",
                  "dead battery",
                  "weak",
                ],
                finding: "battery=low",
                next: "report",
                cause:
                  "Low battery voltage: the slide motor draws high current and stalls or will not run below about 12.4 V.",
                correction:
                  "Charge the batteries (shore power, generator or engine) and retest; load-test and replace weak batteries.",
              },
            ],
          },
          {
            id: "slide_switch",
            question:
              "Press the slide switch IN and OUT. Does 12 V reach the switch and come out of it (or does the controller click or show a code)?",
            howto:
              "Back-probe the switch's input and its IN/OUT outputs while pressing it, or listen for the controller's relays and read any fault code on its display.",
            locate:
              "The slide switch is near the entry door or on the command centre; the controller is usually behind a panel near the slide.",
            explain:
              "The switch and controller decide whether the motor gets power; no output means the fault is upstream of the motor.",
            minutes: 10,
            answers: [
              {
                id: "ok",
                label: "Switch sends 12 V / controller clicks",
                patterns: [
                  "yes",
                  "switch ok",
                  "switch works",
                  "switch is good",
                  "has output",
                  "12v out",
                  "controller clicks",
                  "clicks",
                ],
                finding: "slide_switch=ok",
              },
              {
                id: "bad",
                label: "No output (or a fault code)",
                patterns: [
                  "no",
                  "no output",
                  "switch is bad",
                  "bad switch",
                  "no power at the switch",
                  "no click",
                  "fault code",
                  "error code",
                ],
                finding: "slide_switch=bad",
                next: "report",
                cause:
                  "The slide switch or controller does not send power (switch, slide fuse, interlock or controller).",
                correction:
                  "Check the slide fuse or breaker and the interlocks (park brake, ignition, levelling jacks); replace the switch or controller as testing shows.",
              },
            ],
          },
          {
            id: "motor_runs",
            question: "When you press the switch, does the slide motor run?",
            howto:
              "Have a helper press the switch while you listen at the motor (under the slide floor, or at the wall for in-wall systems). A hum or whine means it runs.",
            locate:
              "Rack-and-pinion motors are under the slide floor, reached from outside under the room; in-wall and cable systems have a motor at the top or side of the opening.",
            explain:
              "A motor that runs without moving the room points to the mechanism; one that does not run points to its power.",
            minutes: 10,
            constraints: ["slide_battery_disconnect"],
            answers: [
              {
                id: "no",
                label: "Motor does not run",
                patterns: [
                  "no",
                  "motor doesn't run",
                  "motor does not run",
                  "motor won't run",
                  "motor is dead",
                  "no sound",
                  "silent",
                ],
                finding: "slide_motor=no",
                next: "report",
                cause: "12 V is sent but the motor does not run (motor, motor wiring or ground).",
                correction:
                  "Check 12 V and ground at the motor connector while pressing the switch; repair the wiring or replace the motor.",
              },
              {
                id: "runs_no_move",
                label: "Runs, but the room does not move",
                patterns: ["runs but doesn't move", "motor runs", "hear it run", "spins", "runs but nothing"],
                finding: "slide_motor=runs_no_move",
                next: "binding",
              },
              {
                id: "stalls",
                label: "Moves, then stalls or strains",
                patterns: [
                  "stalls",
                  "strains",
                  "moves then stops",
                  "stops partway",
                  "slows down",
                  "moves slowly",
                  "grinds",
                  "grinding",
                ],
                finding: "slide_motor=stalls",
                next: "binding",
              },
            ],
          },
          {
            id: "binding",
            question:
              "Look along the room and its rails: is anything blocking or binding it (items inside, debris or ice on the rails, a seal caught, the room out of square)?",
            howto:
              "Walk around the slide inside and out with a flashlight: check the floor and rails for debris, the top and side seals for a fold caught in the opening, and measure the gap at each corner for out-of-square.",
            locate: "Rails or gears are under the room floor; seals run around the outside of the opening.",
            explain: "Most slides that stall are fighting an obstruction; forcing them damages the drive.",
            minutes: 15,
            constraints: ["clear_path"],
            answers: [
              {
                id: "obstruction",
                label: "Something blocks or binds it",
                patterns: [
                  "yes",
                  "blocked",
                  "obstruction",
                  "something blocking",
                  "debris",
                  "ice",
                  "seal caught",
                  "caught",
                  "jammed",
                  "binding",
                  "rubbing",
                  "out of square",
                ],
                finding: "binding=obstruction",
                next: "report",
                cause: "The room binds on an obstruction (debris, ice, a caught seal, or out of square).",
                correction:
                  "Remove the obstruction, clean and lubricate the rails per the manufacturer, free the seal; if the room is out of square, have it adjusted before running it again.",
              },
              {
                id: "none",
                label: "Nothing found",
                patterns: ["no", "nothing blocking", "clear", "path is clear", "no obstruction", "all clear"],
                finding: "binding=none",
              },
            ],
          },
          {
            id: "manual_override",
            question:
              "Using the manual override (crank or brake release, per the manufacturer), does the room move by hand?",
            howto:
              "Find the override in the owner's manual: a crank extension on the motor shaft, or a brake release on the motor. Support the room first, then turn slowly; it should move evenly without binding.",
            locate:
              "The override is at the slide motor: under the slide floor or behind an access panel inside the room.",
            explain: "Moving by hand separates the drive (motor, brake, coupling) from the mechanism (gears, rails).",
            minutes: 20,
            constraints: ["support_room", "clear_path"],
            answers: [
              {
                id: "moves",
                label: "Moves by hand",
                patterns: ["yes", "moves", "it moves", "moves by hand", "room moves", "cranks easily", "moves freely"],
                finding: "override=moves",
                next: "report",
                cause: "The room moves freely by hand: a drive fault (motor, motor brake or coupling).",
                correction:
                  "Replace the slide motor / brake assembly or the coupling and verify the room runs its full travel.",
              },
              {
                id: "stuck",
                label: "Does not move even by hand",
                patterns: [
                  "no",
                  "stuck",
                  "won't move",
                  "will not move",
                  "doesn't move",
                  "does not move",
                  "won't crank",
                  "can't crank",
                  "seized",
                  "locked",
                ],
                finding: "override=stuck",
                next: "report",
                escalate: "warranty",
                cause: "The room does not move even by hand: mechanical failure in the gearbox or rails.",
                correction:
                  "Do not disassemble the gearbox or rails under warranty: support the room and escalate to the dealer.",
              },
            ],
          },
        ],
      },
      constraints: {
        safety: [
          {
            id: "clear_path",
            text: "Keep people, pets and objects clear of the slide room and its path while it moves.",
            always: true,
          },
          {
            id: "support_room",
            text: "Support the room (blocks or stands) before releasing the motor brake or removing the motor: the room can move freely.",
          },
          { id: "slide_battery_disconnect", text: "Disconnect the battery before working on the slide motor wiring." },
        ],
        warranty: [
          {
            id: "slide_mechanism",
            text: "Do not disassemble the slide gearbox, rails or cable system under warranty; escalate to the dealer.",
            always: true,
          },
        ],
      },
    },
  ],
};
