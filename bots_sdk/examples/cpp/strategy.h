// The bot's strategy: the one function to replace with your own (bot.cpp does the serving).
#pragma once

#include "durak/v1/bot.pb.h"

// One of observation.legal_actions() (which is never empty here).
const durak::v1::Action& ChooseAction(const durak::v1::Observation& observation);
